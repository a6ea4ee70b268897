/*
** input.h: the one way every reader opens and reads an input file. Before
** any read that could block, the file is checked to be a regular file (or
** standard input, "-"): a FIFO, a device, a socket or a directory is an
** error, so /dev/zero or a FIFO nobody writes to never hangs a command or
** exhausts memory. Every read is bounded by a cap the caller chooses, checked
** on the bytes actually read (never trusted from st_size: a sparse file may
** claim a terabyte), before the buffer grows past it; the buffer never grows
** beyond the cap (plus the NUL), and running out of memory is the input's
** error ("out of memory reading this input"), never an abort.
**
** Ownership: gr_read_* return a malloc'ed buffer, NUL after the last byte,
** the caller frees; a descriptor from gr_open_input* belongs to the caller
** (0, standard input, is never closed by these functions).
*/
#ifndef GR_INPUT_H
#define GR_INPUT_H

#include <stddef.h>
#include <sys/stat.h>
#include "base/util.h"

/* The default cap of every text input (rules, options, manifests, keys). */
#define GR_READ_MAX ((size_t)64 << 20)

/* Open flags: refuse a symbolic link in the last component. */
#define GR_INPUT_NOFOLLOW 1

/* Opens path relative to dirfd (AT_FDCWD for the working directory) for
** reading without blocking (O_NONBLOCK until the check), fstat()s it into *st
** and refuses anything but a regular file: "not a regular file (a FIFO)" etc.
** "-" is standard input (fd 0), which may be a pipe or a terminal. Returns
** the descriptor, or -1 with err (may be NULL) filled. */
int gr_open_input_at(int dirfd, const char *path, int flags, struct stat *st, gr_error *err);
int gr_open_input(const char *path, struct stat *st, gr_error *err);

/* Reads fd to its end, at most max bytes: one more is "the file is larger
** than the limit" with the byte offset. st (may be NULL) sizes the first
** allocation for a regular file, never beyond max. */
char *gr_read_fd_max(int fd, const struct stat *st, size_t max, size_t *len, gr_error *err);

/* gr_open_input then gr_read_fd_max; gr_read_file caps at GR_READ_MAX. */
char *gr_read_file_max(const char *path, size_t max, size_t *len, gr_error *err);
char *gr_read_file(const char *path, size_t *len, gr_error *err);

/* Why a file of this mode is not read ("a FIFO", "a directory", ...). */
const char *gr_file_kind(mode_t mode);

#endif
