#ifndef CPNGWRITER_H
#define CPNGWRITER_H

// A tiny C layer over libpng. libpng reports errors with longjmp, which Swift
// cannot catch; the setjmp lives in these functions, which return an error code
// instead and free everything they allocated on every path.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Result codes of the functions below (0 = success).
typedef enum {
    CPNG_OK = 0,
    /// A bad argument: null pointer, zero or too large size, stride too small.
    CPNG_ERR_ARGUMENT = 1,
    /// malloc/realloc failed.
    CPNG_ERR_NO_MEMORY = 2,
    /// libpng reported an error (png_error -> longjmp), e.g. corrupt input.
    CPNG_ERR_LIBPNG = 3,
} cpng_status;

/// Writes a 1-bit grayscale PNG (bit 1 = white, most significant bit first) to memory.
///
/// `rows` holds `height` rows of `stride` bytes each; each row needs at least
/// ceil(width / 8) bytes. `compression_level` is a zlib level 0...9 (or -1 for libpng's default).
/// On success returns CPNG_OK and sets `*out` to a malloc'd buffer of `*out_len` bytes that
/// the caller releases with cpng_free. On failure `*out` is NULL, `*out_len` is 0 and nothing leaks.
int cpng_write_gray1(const uint8_t *rows, uint32_t width, uint32_t height, size_t stride,
                     int compression_level, uint8_t **out, size_t *out_len);

/// Decodes any PNG into 8-bit grayscale pixels (one byte per pixel, rows packed, no padding).
///
/// Palette, low bit depth and 16-bit images are expanded/stripped, color is converted to gray,
/// alpha is dropped. Meant for tests and tools. On success `*pixels` is a malloc'd buffer of
/// width * height bytes released with cpng_free; on failure it is NULL and nothing leaks.
int cpng_read_gray8(const uint8_t *png, size_t png_len, uint8_t **pixels, uint32_t *width, uint32_t *height);

/// Frees a buffer returned by this library (NULL is allowed).
void cpng_free(void *buffer);

#ifdef __cplusplus
}
#endif

#endif
