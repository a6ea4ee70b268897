# validate_schemas.py SCHEMA_DIR NAME=DOC.json...: validates each JSON document
# against SCHEMA_DIR/NAME.schema.json with the Draft 2020-12 validator of
# python3-jsonschema, after checking every schema file is itself a valid
# 2020-12 schema; fails when any schema file was not exercised by a document
# (a schema that no real output is checked against is not a tested schema).
import json, os, sys
from jsonschema import Draft202012Validator

sdir = sys.argv[1]
schemas = {}
for f in sorted(os.listdir(sdir)):
    if f.endswith(".schema.json"):
        s = json.load(open(os.path.join(sdir, f)))
        Draft202012Validator.check_schema(s)
        assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema", f
        schemas[f[:-len(".schema.json")]] = s
used = set()
bad = 0
for arg in sys.argv[2:]:
    name, path = arg.split("=", 1)
    doc = json.load(open(path))
    s = schemas[name]
    used.add(name)
    errs = sorted(Draft202012Validator(s).iter_errors(doc), key=lambda e: list(e.absolute_path))
    for e in errs[:5]:
        print("%s (%s): %s at %s" % (path, name, e.message[:300], "/".join(map(str, e.absolute_path))))
    bad += len(errs)
    if doc.get("schema_version") != s["properties"]["schema_version"]["const"]:
        print("%s: schema_version %r" % (path, doc.get("schema_version"))); bad += 1
missing = sorted(set(schemas) - used)
if missing:
    print("schemas no document was checked against: %s" % ", ".join(missing)); bad += 1
sys.exit(1 if bad else 0)
