/* cxx_comdat.h - an inline member function, so a COMDAT group in every
 * unit that emits it, whose recursive helper GCC's IPA-SRA clones; the
 * clone is local and used only from the group, so GCC moves it into the
 * group.  Two units (cxx_comdat_a.cc, cxx_comdat_b.cc) each emit the
 * group and the linker keeps one: a logging copy outside the group that
 * calls the clone pointed into a discarded section and failed the link
 * (tests/e2e/fzcc_cxx_comdat.sh). */
#include <cstdlib>

struct cc_node {
    cc_node *left, *right;
    int key;
};

extern int cc_seen;

template <class T> struct cc_tree {
    cc_node *root = nullptr;

    void add(int key)
    {
        cc_node *n = (cc_node *)std::calloc(1, sizeof *n);
        n->key = key;
        n->left = root;
        root = n;
    }
    void drop(cc_node *n)
    {
        while (n) {
            drop(n->right);
            cc_node *l = n->left;
            if (n->key == 0x4242)
                cc_seen++;
            std::free(n);
            n = l;
        }
    }
    __attribute__((noinline)) ~cc_tree() { drop(root); }
};
