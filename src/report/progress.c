/*
** progress.c: the terminal progress meter of progress.h. A line is drawn
** with a carriage return and "erase to end of line" (ECMA-48 CSI K), which
** every terminal emulator in use understands; nothing is drawn unless the
** descriptor is a terminal. The label is sanitised once (control bytes
** become '?') so a file name cannot inject terminal sequences.
*/
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "base/util.h"
#include "report/progress.h"

#define INTERVAL 0.1          /* seconds between redraws */

static double now(void){
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void gr_progress_init(gr_progress *p, int fd, const char *what, uint64_t total, const char *unit){
  const char *d = getenv("GERULES_PROGRESS_DELAY");
  char *end;
  size_t i;
  memset(p, 0, sizeof *p);
  p->fd = fd >= 0 && isatty(fd) ? fd : -1;
  p->what = gr_xstrdup(what ? what : "");
  for(i = 0; p->what[i]; i++)
    if( (unsigned char)p->what[i] < 0x20 || p->what[i]==0x7f ) p->what[i] = '?';
  p->unit = unit ? unit : "";
  p->total = total;
  p->delay = 1.0;
  if( d && *d ){
    double x = strtod(d, &end);
    if( *end==0 && x >= 0 && x <= 3600 ) p->delay = x;
  }
  p->t0 = p->last = now();
  p->stride = total / 1000 ? total / 1000 : 1;
  p->next = 0;
}

static void write_all(int fd, const char *s, size_t n){
  while( n ){
    ssize_t k = write(fd, s, n);
    if( k < 0 && errno==EINTR ) continue;
    if( k <= 0 ) return;           /* a meter never fails the work */
    s += k; n -= (size_t)k;
  }
}

static void draw(gr_progress *p, uint64_t done, double t){
  char line[512];
  int n, bytes = strcmp(p->unit, "bytes")==0;
  if( p->total ){
    unsigned pct = (unsigned)(done >= p->total ? 100 : done * 100.0 / (double)p->total);
    if( bytes )
      n = snprintf(line, sizeof line, "\r%.200s: %3u%% (%.1f of %.1f MiB, %.0f s)\033[K", p->what, pct,
                   (double)done / 1048576.0, (double)p->total / 1048576.0, t - p->t0);
    else
      n = snprintf(line, sizeof line, "\r%.200s: %3u%% (%llu of %llu %.40s, %.0f s)\033[K", p->what, pct,
                   (unsigned long long)done, (unsigned long long)p->total, p->unit, t - p->t0);
  }else if( bytes ){
    n = snprintf(line, sizeof line, "\r%.200s: %.1f MiB (%.0f s)\033[K", p->what, (double)done / 1048576.0, t - p->t0);
  }else{
    n = snprintf(line, sizeof line, "\r%.200s: %llu %.40s (%.0f s)\033[K", p->what,
                 (unsigned long long)done, p->unit, t - p->t0);
  }
  if( n > 0 ) write_all(p->fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
  p->shown = 1;
  p->last = t;
}

void gr_progress_draw_(gr_progress *p, uint64_t done){
  double t = now();
  p->done = done;
  /* look at the clock again after about INTERVAL's worth of units */
  if( t - p->t0 >= p->delay && (!p->shown || t - p->last >= INTERVAL) ) draw(p, done, t);
  p->next = done + p->stride;
}

static void *watch_main(void *arg){
  gr_progress *p = arg;
  struct timespec ts;
  pthread_mutex_lock(&p->mu);
  while( !p->stop ){
    uint64_t done = p->poll(p->ud);
    double t = now();
    if( t - p->t0 >= p->delay ) draw(p, done, t);
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += (long)(INTERVAL * 1e9);
    if( ts.tv_nsec >= 1000000000L ){ ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
    while( !p->stop && pthread_cond_timedwait(&p->cv, &p->mu, &ts)==0 ) ;
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

int gr_progress_watch(gr_progress *p, uint64_t (*poll)(void *ud), void *ud){
  if( p->fd < 0 || p->watching ) return -1;
  p->poll = poll;
  p->ud = ud;
  p->stop = 0;
  if( pthread_mutex_init(&p->mu, NULL)!=0 ) return -1;
  if( pthread_cond_init(&p->cv, NULL)!=0 ){ pthread_mutex_destroy(&p->mu); return -1; }
  if( pthread_create(&p->thread, NULL, watch_main, p)!=0 ){
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    return -1;
  }
  p->watching = 1;
  return 0;
}

uint64_t gr_progress_fd_offset(void *ud){
  off_t o = lseek(*(const int *)ud, 0, SEEK_CUR);
  return o > 0 ? (uint64_t)o : 0;
}

void gr_progress_done(gr_progress *p){
  if( p->watching ){
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    p->watching = 0;
  }
  if( p->fd >= 0 && p->shown ) write_all(p->fd, "\r\033[K", 4);
  p->shown = 0;
  free(p->what);
  p->what = NULL;
  p->fd = -1;
}
