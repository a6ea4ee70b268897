/*
** cmd_bundle.c: `gerules bundle keygen|sign|verify`, the vendor's side of
** signed bundles: make an Ed25519 key pair, sign a bundle directory (write its
** MANIFEST and MANIFEST.sig), and verify a bundle against the trust store
** exactly as every other command does before using it.
*/
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"

static const char bundle_usage[] =
  "usage: gerules bundle keygen [--name NAME] OUT\n"
  "       gerules [--rules BASE...] bundle sign --key KEY [--key KEY2 ...] [--expires DATE | --valid-days N] PATH\n"
  "       gerules [--trust FILE] [--rules BASE...] bundle verify PATH...\n"
  "\n"
  "keygen writes OUT.key (the secret key, mode 0600; never overwritten) and OUT.pub (one\n"
  "trust-store line: 'key ID PUBLIC NAME'). sign writes PATH/MANIFEST (bundle name, version,\n"
  "CANN range, expiry, signer key ids and the SHA-256 of every file) and PATH/MANIFEST.sig (one\n"
  "Ed25519 signature per key; several keys sign at once, for key rotation); a layer is checked on\n"
  "top of the bundles given with --rules before it is signed. The expiry is\n"
  "DATE (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ, UTC) or N days from now (default 365).\n"
  "verify checks PATH as every command does when a trust store is configured (--trust,\n"
  "$GERULES_TRUST or the installed trust folder): signatures, trusted and revoked keys, expiry,\n"
  "changed, added, removed or renamed files, and anti-rollback; it records nothing.\n";

static int is_help(const char *a){ return strcmp(a, "--help")==0 || strcmp(a, "-h")==0; }

static int write_new(const char *path, const char *text, int mode){
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  size_t n = strlen(text), off = 0;
  if( fd < 0 ){
    fprintf(stderr, "gerules bundle keygen: error: %s: %s%s\n", path, strerror(errno),
            errno==EEXIST ? " (a key file is never overwritten)" : "");
    return -1;
  }
  while( off < n ){
    ssize_t w = write(fd, text + off, n - off);
    if( w < 0 && errno==EINTR ) continue;
    if( w <= 0 ){
      fprintf(stderr, "gerules bundle keygen: error: %s: %s\n", path, strerror(errno));
      close(fd);
      unlink(path);
      return -1;
    }
    off += (size_t)w;
  }
  if( fsync(fd)!=0 || close(fd)!=0 ){
    fprintf(stderr, "gerules bundle keygen: error: %s: %s\n", path, strerror(errno));
    unlink(path);
    return -1;
  }
  return 0;
}

static int keygen(int argc, char **argv){
  const char *name = "", *out = NULL, *v;
  char *sk = NULL, *pk = NULL, *skp, *pkp;
  int i, k, rc = EXIT_INPUT;
  for(i = 0; i < argc; i++){
    if( (k = cli_arg_value("bundle keygen", "--name", &i, argc, argv, &v))!=0 ){ if( k < 0 ) return EXIT_INPUT; name = v; continue; }
    if( argv[i][0]=='-' ) return cli_unknown_option("bundle keygen", bundle_usage, argv[i]);
    if( out ) return cli_usage_error("bundle keygen", "one output name only");
    out = argv[i];
  }
  if( out==NULL ) return cli_usage_error("bundle keygen", "no output name given (OUT.key and OUT.pub are written)");
  if( gr_crypto_init()!=0 ){ fprintf(stderr, "gerules bundle keygen: error: cannot initialise libsodium\n"); return EXIT_INPUT; }
  if( gr_key_generate(name, &sk, &pk)!=0 ) return cli_usage_error("bundle keygen", "a key name cannot hold control characters");
  skp = gr_xasprintf("%s.key", out);
  pkp = gr_xasprintf("%s.pub", out);
  if( access(pkp, F_OK)==0 ){
    fprintf(stderr, "gerules bundle keygen: error: %s exists (a key file is never overwritten)\n", pkp);
  }else if( write_new(skp, sk, 0600)==0 ){
    if( write_new(pkp, pk, 0644)==0 ){
      char id[GR_KEYID_LEN + 1];
      memcpy(id, pk + 4, GR_KEYID_LEN); id[GR_KEYID_LEN] = 0;
      printf("key %s: secret key %s (keep it private), public key %s (add it to a trust store)\n", id, skp, pkp);
      rc = 0;
    }else{
      unlink(skp);
    }
  }
  memset(sk, 0, strlen(sk));
  free(sk); free(pk); free(skp); free(pkp);
  return rc;
}

static int sign(cli_ctx *c, int argc, char **argv){
  gr_key *keys = NULL;
  size_t nkeys = 0, i;
  const char *path = NULL, *v, *expires = NULL, *days = NULL;
  int k, rc = EXIT_INPUT;
  gr_diags d;
  gr_ruleset *rs = NULL;
  gr_sign_opts o;
  struct stat st;
  char *root = NULL;
  gr_diags_init(&d);
  if( gr_crypto_init()!=0 ){ fprintf(stderr, "gerules bundle sign: error: cannot initialise libsodium\n"); return EXIT_INPUT; }
  for(i = 0; i < (size_t)argc; i++){
    int ii = (int)i;
    if( (k = cli_arg_value("bundle sign", "--key", &ii, argc, argv, &v))!=0 ){
      i = (size_t)ii;
      if( k < 0 ) goto out;
      keys = gr_xrealloc(keys, (nkeys + 1) * sizeof *keys);
      if( gr_key_read_secret(v, &keys[nkeys], &d)!=0 ){ cli_print_diags(&d); goto out; }
      nkeys++;
      continue;
    }
    if( (k = cli_arg_value("bundle sign", "--expires", &ii, argc, argv, &v))!=0 ){ i = (size_t)ii; if( k < 0 ) goto out; expires = v; continue; }
    if( (k = cli_arg_value("bundle sign", "--valid-days", &ii, argc, argv, &v))!=0 ){ i = (size_t)ii; if( k < 0 ) goto out; days = v; continue; }
    if( argv[i][0]=='-' ){ cli_unknown_option("bundle sign", bundle_usage, argv[i]); goto out; }
    if( path ){ cli_usage_error("bundle sign", "one bundle at a time"); goto out; }
    path = argv[i];
  }
  if( path==NULL ){ cli_usage_error("bundle sign", "no bundle directory given"); goto out; }
  if( nkeys==0 ){ cli_usage_error("bundle sign", "no --key given"); goto out; }
  memset(&o, 0, sizeof o);
  if( expires && days ){ cli_usage_error("bundle sign", "--expires and --valid-days exclude each other"); goto out; }
  if( expires ){
    if( gr_parse_utc(expires, &o.expires)!=0 ){ cli_usage_error("bundle sign", "malformed --expires '%s' (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)", expires); goto out; }
  }else{
    char *end;
    long n = days ? strtol(days, &end, 10) : 365;
    if( days && (*end || end==days || n < 1 || n > 36500) ){ cli_usage_error("bundle sign", "--valid-days needs a number of days from 1 to 36500"); goto out; }
    o.expires = time(NULL) + (time_t)n * 86400;
  }
  if( stat(path, &st)!=0 || !S_ISDIR(st.st_mode) ){
    fprintf(stderr, "gerules bundle sign: error: %s: not a bundle directory\n", path);
    goto out;
  }
  root = gr_xstrdup(path);
  /* a bundle is signed only when it checks: what is signed is what loads
  ** (a layer checks on top of the bundles given with --rules) */
  {
    const char **stack = gr_xcalloc(c->nrules_paths + 2, sizeof *stack);
    size_t ns = 0, r;
    for(r = 0; r < c->nrules_paths; r++) stack[ns++] = c->rules_paths[r];
    stack[ns++] = root;
    rs = gr_ruleset_load(stack, ns, &d);
    free(stack);
  }
  if( rs==NULL ){
    cli_print_diags(&d);
    fprintf(stderr, "gerules bundle sign: error: %s has errors; it is not signed\n", path);
    goto out;
  }
  if( rs->bundle_name==NULL || rs->bundle_version==NULL || !gr_semver_valid(rs->bundle_version) ){
    fprintf(stderr, "gerules bundle sign: error: %s: a signed bundle needs a bundle statement with a semantic version "
            "(version \"MAJOR.MINOR.PATCH\"), for anti-rollback\n", path);
    goto out;
  }
  o.name = rs->bundle_name; o.version = rs->bundle_version; o.cann = rs->bundle_cann;
  if( rs->nlayers > 1 ){
    const gr_layer *L = &rs->layers[rs->nlayers - 1];
    if( L->name==NULL || L->version==NULL || !gr_semver_valid(L->version) ){
      fprintf(stderr, "gerules bundle sign: error: %s: a signed bundle needs a bundle statement with a semantic version\n", path);
      goto out;
    }
    o.name = L->name; o.version = L->version; o.cann = L->cann;
  }
  o.keys = keys; o.nkeys = nkeys;
  if( gr_bundle_sign(root, &o, &d)!=0 ){ cli_print_diags(&d); goto out; }
  {
    char when[32];
    gr_format_utc(o.expires, when);
    printf("signed %s %s (%s) with key%s", o.name, o.version, path, nkeys==1 ? "" : "s");
    for(i = 0; i < nkeys; i++) printf("%s %s", i ? "," : "", keys[i].id);
    printf("; expires %s\n", when);
  }
  rc = 0;
out:
  for(i = 0; i < nkeys; i++) gr_key_clear(&keys[i]);
  free(keys);
  free(root);
  gr_ruleset_free(rs);
  gr_diags_free(&d);
  return rc;
}

/* Whether two paths name the same directory (device and inode). */
static int same_dir(const char *a, const char *b){
  struct stat sa, sb;
  if( strcmp(a, b)==0 ) return 1;
  return stat(a, &sa)==0 && stat(b, &sb)==0 && sa.st_dev==sb.st_dev && sa.st_ino==sb.st_ino;
}

static int verify(cli_ctx *c, int argc, char **argv){
  int i, rc = 0;
  if( argc==0 ) return cli_usage_error("bundle verify", "no bundle given");
  for(i = 0; i < argc; i++) if( argv[i][0]=='-' ) return cli_unknown_option("bundle verify", bundle_usage, argv[i]);
  if( cli_trust_setup(c)!=0 ) return EXIT_INPUT;
  if( !c->trusting ){
    if( cli_build_srcdir() )
      fprintf(stderr, "gerules bundle verify: error: no trust store (give --trust FILE or set GERULES_TRUST; "
              "a gerules run from its build tree does not read the installed trust folder)\n");
    else
      fprintf(stderr, "gerules bundle verify: error: no trust store (give --trust FILE, set GERULES_TRUST, or install keys in %s)\n",
              cli_installed_trust());
    return EXIT_INPUT;
  }
  c->no_record = 1;
  for(i = 0; i < argc; i++){
    const char *p = argv[i];
    size_t before = c->guard.nverified, k, ns = 0;
    /* a layer is verified (and loaded) on top of the bundles given with --rules */
    const char **stack = gr_xcalloc(c->nrules_paths + 2, sizeof *stack);
    gr_ruleset *rs;
    int on_stack = 0;
    for(k = 0; k < c->nrules_paths; k++){
      stack[ns++] = c->rules_paths[k];
      if( same_dir(c->rules_paths[k], p) ) on_stack = 1;
    }
    if( !on_stack ) stack[ns++] = p;     /* given with --rules too (the guide's line): once */
    rs = cli_load_paths(c, stack, ns);
    free(stack);
    if( rs==NULL ){
      if( !c->refused ){ cli_print_diags(&c->diags); fprintf(stderr, "gerules bundle verify: %s has errors\n", p); }
      rc = EXIT_INPUT;
      c->refused = 0;
      gr_diags_free(&c->diags);
      gr_diags_init(&c->diags);
      continue;
    }
    for(k = before; k < c->guard.nverified; k++){
      const gr_verified *v = &c->guard.verified[k];
      size_t s, j;
      for(j = before; j < k && !same_dir(c->guard.verified[j].root, v->root); j++) ;
      if( j < k ) continue;              /* each bundle once */
      printf("%s: %s %s verified: %zu file%s, signed by", v->root, v->name, v->version, v->nfiles, v->nfiles==1 ? "" : "s");
      for(s = 0; s < v->nsigners; s++) printf("%s %s", s ? "," : "", v->signers[s]);
      printf("; expires %s\n", v->expires);
    }
    gr_ruleset_free(rs);
  }
  return rc;
}

int cmd_bundle(cli_ctx *c, int argc, char **argv){
  if( argc==0 ){ fputs(bundle_usage, stderr); return EXIT_INPUT; }
  {
    int i;
    for(i = 0; i < argc; i++) if( is_help(argv[i]) ){ fputs(bundle_usage, stdout); return 0; }
  }
  if( strcmp(argv[0], "keygen")==0 ) return keygen(argc - 1, argv + 1);
  if( strcmp(argv[0], "sign")==0 ) return sign(c, argc - 1, argv + 1);
  if( strcmp(argv[0], "verify")==0 ) return verify(c, argc - 1, argv + 1);
  return cli_usage_error("bundle", "unknown subcommand '%s' (keygen, sign or verify)", argv[0]);
}
