/*
 * png_read.c - bench/coverage.sh's harness for Debian's libpng1.6: decode
 * the file named by argv[1] as a PNG, with the common transformations
 * (expand, strip 16, gray to RGB, interlace handling) as an image viewer
 * would, refusing images over 4 megapixels.  zlib is the system's.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "png.h"

struct src {
    const unsigned char *p;
    size_t n, at;
};

static void rd(png_structp png, png_bytep out, size_t len)
{
    struct src *s = png_get_io_ptr(png);
    if (len > s->n - s->at)
        png_error(png, "short read");
    memcpy(out, s->p + s->at, len);
    s->at += len;
}

int main(int argc, char **argv)
{
    static unsigned char in[1 << 20];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 1;
    size_t n = fread(in, 1, sizeof in, f);
    fclose(f);
    if (n < 8 || png_sig_cmp(in, 0, 8))
        return 0;
    struct src s = {in, n, 8};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info)
        return 1;
    unsigned char *volatile img = NULL;
    if (setjmp(png_jmpbuf(png)) == 0) {
        png_set_read_fn(png, &s, rd);
        png_set_sig_bytes(png, 8);
        png_set_user_limits(png, 4096, 4096);
        png_read_info(png, info);
        png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
        if ((unsigned long long)w * h <= (4u << 20)) {
            png_set_expand(png);
            png_set_strip_16(png);
            png_set_gray_to_rgb(png);
            png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
            int passes = png_set_interlace_handling(png);
            png_read_update_info(png, info);
            size_t row = png_get_rowbytes(png, info);
            img = malloc(row);
            for (int p = 0; img && p < passes; p++)
                for (png_uint_32 y = 0; y < h; y++)
                    png_read_row(png, img, NULL);
            png_read_end(png, info);
        }
    }
    free(img);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}
