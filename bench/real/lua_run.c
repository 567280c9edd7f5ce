/*
 * lua_run.c - bench/coverage.sh's harness for Debian's lua5.4: compile the
 * file named by argv[1] as a Lua chunk and run it with the base, string,
 * table, math and utf8 libraries (no io, os or package: nothing touches
 * files), at most ~1M VM instructions and 64 MiB.
 */
#include <stdio.h>
#include <stdlib.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

static size_t used;

static void *alloc(void *ud, void *p, size_t osize, size_t nsize)
{
    (void)ud;
    size_t old = p ? osize : 0;
    if (nsize == 0) {
        used -= old;
        free(p);
        return NULL;
    }
    if (nsize > old && used + (nsize - old) > (64u << 20))
        return NULL;
    void *q = realloc(p, nsize);
    if (q)
        used = used - old + nsize;
    return q;
}

static void stop(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    luaL_error(L, "instruction budget spent");
}

int main(int argc, char **argv)
{
    static char in[1 << 20];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 1;
    size_t n = fread(in, 1, sizeof in, f);
    fclose(f);
    lua_State *L = lua_newstate(alloc, NULL);
    if (!L)
        return 1;
    static const luaL_Reg libs[] = {{LUA_GNAME, luaopen_base},         {LUA_STRLIBNAME, luaopen_string},
                                    {LUA_TABLIBNAME, luaopen_table},   {LUA_MATHLIBNAME, luaopen_math},
                                    {LUA_UTF8LIBNAME, luaopen_utf8},   {NULL, NULL}};
    for (const luaL_Reg *l = libs; l->func; l++) {
        luaL_requiref(L, l->name, l->func, 1);
        lua_pop(L, 1);
    }
    /* dofile and loadfile would read files: gone. */
    lua_pushnil(L);
    lua_setglobal(L, "dofile");
    lua_pushnil(L);
    lua_setglobal(L, "loadfile");
    lua_sethook(L, stop, LUA_MASKCOUNT, 1000000);
    if (luaL_loadbufferx(L, in, n, "input", "t") == LUA_OK)
        lua_pcall(L, 0, 0, 0);
    lua_close(L);
    return 0;
}
