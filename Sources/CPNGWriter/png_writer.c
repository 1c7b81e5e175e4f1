#include "png_writer.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>

// Never let libpng print to stderr or abort: errors longjmp back to our setjmp,
// warnings are ignored.
static void cpng_on_error(png_structp png, png_const_charp message) {
    (void)message;
    png_longjmp(png, 1);
}

static void cpng_on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

// ---- writing -------------------------------------------------------------

typedef struct {
    uint8_t *data;
    size_t length;
    size_t capacity;
} cpng_buffer;

static void cpng_buffer_write(png_structp png, png_bytep bytes, png_size_t count) {
    cpng_buffer *buffer = (cpng_buffer *)png_get_io_ptr(png);
    if (count > SIZE_MAX - buffer->length) {
        png_error(png, "PNG too large");
    }
    size_t needed = buffer->length + count;
    if (needed > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 1024;
        while (capacity < needed) {
            capacity = capacity > SIZE_MAX / 2 ? needed : capacity * 2;
        }
        uint8_t *grown = (uint8_t *)realloc(buffer->data, capacity);
        if (grown == NULL) {
            png_error(png, "out of memory");
        }
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, bytes, count);
    buffer->length = needed;
}

static void cpng_buffer_flush(png_structp png) {
    (void)png;
}

int cpng_write_gray1(const uint8_t *rows, uint32_t width, uint32_t height, size_t stride,
                     int compression_level, uint8_t **out, size_t *out_len) {
    if (out == NULL || out_len == NULL) {
        return CPNG_ERR_ARGUMENT;
    }
    *out = NULL;
    *out_len = 0;
    if (rows == NULL || width == 0 || height == 0 || width > PNG_USER_WIDTH_MAX || height > PNG_USER_HEIGHT_MAX ||
        stride < ((size_t)width + 7) / 8 || compression_level < -1 || compression_level > 9) {
        return CPNG_ERR_ARGUMENT;
    }

    // Everything libpng's longjmp may skip over is reachable from here, in memory
    // (the address is taken), so it is valid after the jump.
    cpng_buffer buffer = {NULL, 0, 0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, cpng_on_error, cpng_on_warning);
    if (png == NULL) {
        return CPNG_ERR_NO_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        return CPNG_ERR_NO_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(buffer.data);
        return CPNG_ERR_LIBPNG;
    }

    png_set_write_fn(png, &buffer, cpng_buffer_write, cpng_buffer_flush);
    png_set_IHDR(png, info, width, height, 1, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    // No filtering: rows of a scaled QR symbol repeat exactly, which deflate's window
    // already finds. Measured: "Up" on repeated rows gives larger files at every level.
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    if (compression_level >= 0) {
        png_set_compression_level(png, compression_level);
    }
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)(rows + (size_t)y * stride));
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);

    *out = buffer.data;
    *out_len = buffer.length;
    return CPNG_OK;
}

// ---- reading -------------------------------------------------------------

typedef struct {
    const uint8_t *data;
    size_t length;
    size_t offset;
} cpng_reader;

static void cpng_reader_read(png_structp png, png_bytep bytes, png_size_t count) {
    cpng_reader *reader = (cpng_reader *)png_get_io_ptr(png);
    if (count > reader->length - reader->offset) {
        png_error(png, "unexpected end of PNG data");
    }
    memcpy(bytes, reader->data + reader->offset, count);
    reader->offset += count;
}

int cpng_read_gray8(const uint8_t *png_data, size_t png_len, uint8_t **pixels, uint32_t *width, uint32_t *height) {
    if (pixels == NULL || width == NULL || height == NULL) {
        return CPNG_ERR_ARGUMENT;
    }
    *pixels = NULL;
    *width = 0;
    *height = 0;
    if (png_data == NULL || png_len < 8 || png_sig_cmp((png_const_bytep)png_data, 0, 8) != 0) {
        return CPNG_ERR_ARGUMENT;
    }

    cpng_reader reader = {png_data, png_len, 0};
    // Reachable after longjmp: it is only assigned through its address below.
    uint8_t *image = NULL;
    uint8_t **volatile image_ref = &image;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, cpng_on_error, cpng_on_warning);
    if (png == NULL) {
        return CPNG_ERR_NO_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        return CPNG_ERR_NO_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(*image_ref);
        return CPNG_ERR_LIBPNG;
    }

    png_set_read_fn(png, &reader, cpng_reader_read);
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info);
    png_uint_32 h = png_get_image_height(png, info);
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);

    if (color_type == PNG_COLOR_TYPE_PALETTE) {
        png_set_palette_to_rgb(png);
    }
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) {
        png_set_expand_gray_1_2_4_to_8(png);
    }
    if (bit_depth == 16) {
        png_set_strip_16(png);
    }
    if (color_type & PNG_COLOR_MASK_ALPHA || png_get_valid(png, info, PNG_INFO_tRNS)) {
        png_set_strip_alpha(png);
    }
    if (color_type == PNG_COLOR_TYPE_RGB || color_type == PNG_COLOR_TYPE_RGB_ALPHA ||
        color_type == PNG_COLOR_TYPE_PALETTE) {
        png_set_rgb_to_gray_fixed(png, 1, -1, -1);
    }
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != w) {
        png_error(png, "unexpected row size after transformation");
    }
    if (h != 0 && w > SIZE_MAX / h) {
        png_error(png, "image too large");
    }
    *image_ref = (uint8_t *)malloc((size_t)w * h);
    if (*image_ref == NULL) {
        png_error(png, "out of memory");
    }
    for (int pass = 0; pass < passes; pass++) {
        for (png_uint_32 y = 0; y < h; y++) {
            png_read_row(png, *image_ref + (size_t)y * w, NULL);
        }
    }
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);

    *pixels = *image_ref;
    *width = w;
    *height = h;
    return CPNG_OK;
}

void cpng_free(void *buffer) {
    free(buffer);
}
