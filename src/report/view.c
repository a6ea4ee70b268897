/*
** view.c: the value colours of view.h.
*/
#include "config.h"
#include <string.h>
#include "report/view.h"

const char *const gr_view_palette[GR_VIEW_NPALETTE] = {
  "#332288", "#88ccee", "#44aa99", "#117733", "#999933", "#ddcc77",
  "#cc6677", "#882255", "#aa4499", "#ee7733", "#0077bb", "#bbbbbb"
};

/* The modes' names are in gr_mode records, not an array of strings: walk them. */
static int mode_index(const gr_ruleset *rs, const char *value){
  size_t i;
  for(i = 0; i < rs->nmodes; i++) if( strcmp(rs->modes[i].name, value)==0 ) return (int)i;
  return -1;
}

const char *const *gr_view_values(const gr_ruleset *rs, size_t slot, size_t *n){
  const gr_slot *sl = &rs->slots[slot];
  *n = sl->values_mode ? rs->nmodes : sl->nvalues;
  return sl->values_mode ? NULL : sl->values;
}

int gr_view_index(const gr_ruleset *rs, size_t slot, const char *value){
  const gr_slot *sl;
  size_t i;
  if( value==NULL ) return -1;
  sl = &rs->slots[slot];
  if( sl->values_mode ) return mode_index(rs, value);
  for(i = 0; i < sl->nvalues; i++) if( strcmp(sl->values[i], value)==0 ) return (int)i;
  return -1;
}

const char *gr_view_colour(const gr_ruleset *rs, size_t slot, const char *value){
  size_t i;
  int k;
  if( value==NULL ) return GR_VIEW_NONE;
  k = gr_view_index(rs, slot, value);
  if( k < 0 ){                       /* not declared (a hook value is always declared): hash it */
    unsigned h = 5381;
    for(i = 0; value[i]; i++) h = h * 33u + (unsigned char)value[i];
    k = (int)(h % GR_VIEW_NPALETTE);
  }
  return gr_view_palette[k % GR_VIEW_NPALETTE];
}
