/* expat_config.h - the configuration bench/coverage.sh builds Debian's
 * expat with (what its configure would find on Linux). */
#define BYTEORDER 1234
#define HAVE_GETRANDOM 1
#define HAVE_SYSCALL_GETRANDOM 1
#define XML_CONTEXT_BYTES 1024
#define XML_DTD 1
#define XML_GE 1
#define XML_NS 1
#define XML_DEV_URANDOM 1
#define PACKAGE "expat"
#include <memory.h>
#include <string.h>
