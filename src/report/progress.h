/*
** progress.h: a one-line progress meter for long work (loading a big model,
** `tile --execute`), shown on a terminal only. The meter draws on the file
** descriptor it is given (the CLI passes 2) and only when that descriptor is
** a terminal: piped or redirected, nothing is ever written. It stays silent
** for the first second (GERULES_PROGRESS_DELAY=SECONDS changes that delay,
** for tests), then redraws at most ten times a second, and gr_progress_done
** erases its line, so the output after it starts on a clean line.
**
** Two ways to drive it:
**   - the worker calls gr_progress_update(p, done) as it goes (cheap: the
**     clock is read only every `stride` units); or
**   - gr_progress_watch starts a thread that polls a function every 100 ms
**     (for work that cannot report, e.g. a reader: poll the fd's offset with
**     gr_progress_fd_offset). Then only the thread draws: do not also call
**     gr_progress_update on that meter.
** A meter is used by one worker at a time; distinct meters are independent.
**
** Ownership: a gr_progress owns its copy of the label and, while watching,
** its thread; gr_progress_done releases both (and must be called once for
** every gr_progress_init, also when the meter is off).
*/
#ifndef GR_PROGRESS_H
#define GR_PROGRESS_H

#include <stdint.h>
#include <pthread.h>

typedef struct gr_progress {
  int fd;                     /* -1: off (not a terminal) */
  char *what;                 /* label, control characters replaced */
  const char *unit;           /* "bytes" (shown as MiB) or a plural noun ("nodes") */
  uint64_t total, done;       /* total 0: unknown (no percentage) */
  double t0, last, delay;     /* monotonic seconds */
  uint64_t next, stride;      /* update: look at the clock when done >= next */
  int shown;                  /* the line is on the screen */
  /* watching */
  int watching;
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int stop;
  uint64_t (*poll)(void *ud);
  void *ud;
} gr_progress;

/* Starts a meter labelled `what` for `total` units (0 when unknown) of
** `unit` ("bytes" or a plural noun). Off unless isatty(fd). */
void gr_progress_init(gr_progress *p, int fd, const char *what, uint64_t total, const char *unit);
void gr_progress_draw_(gr_progress *p, uint64_t done);
static inline void gr_progress_update(gr_progress *p, uint64_t done){
  if( p->fd >= 0 && done >= p->next ) gr_progress_draw_(p, done);
}
/* Polls poll(ud) every 100 ms from a thread; returns -1 (and stays a plain
** meter) when the thread cannot be started or the meter is off. */
int  gr_progress_watch(gr_progress *p, uint64_t (*poll)(void *ud), void *ud);
/* A poll function for gr_progress_watch: the offset of the fd *(int *)ud. */
uint64_t gr_progress_fd_offset(void *ud);
/* Stops the thread if any and erases the meter's line. */
void gr_progress_done(gr_progress *p);

#endif
