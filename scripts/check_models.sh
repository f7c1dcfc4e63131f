#!/usr/bin/env bash
# `monotable model check` end to end (run by ctest as model_check_cli):
#   every examples/models/*.yaml passes (exit 0);
#   every tests/workbench/models/*.yaml fails (exit 1) with the code its first line names
#   ("# expect: key.prefix-bleed") among the --json findings.
set -uo pipefail
shopt -s nullglob
bin="${1:?usage: check_models.sh MONOTABLE_BINARY}"
root="$(cd "$(dirname "$0")/.." && pwd)"
passed=0
failed=0
for model in "$root"/examples/models/*.yaml; do
  if out=$("$bin" model check "$model" 2>&1); then
    passed=$((passed + 1))
  else
    echo "FAIL: $model should pass model check:"
    echo "$out"
    failed=$((failed + 1))
  fi
done
for model in "$root"/tests/workbench/models/*.yaml; do
  code=$(sed -n '1s/^# expect: *//p' "$model")
  out=$("$bin" model check --json "$model" 2>&1)
  rc=$?
  if [ "$rc" = 1 ] && [ -n "$code" ] && grep -q "\"code\": \"$code\"" <<<"$out"; then
    passed=$((passed + 1))
  else
    echo "FAIL: $model should fail model check with $code (exit $rc):"
    echo "$out" | head -40
    failed=$((failed + 1))
  fi
done
# JSON is read as well as YAML: the blog example converted to JSON gives the same report.
json_model=$(mktemp --suffix=.json)
/usr/bin/python3 -c 'import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), open(sys.argv[2], "w"), indent=2)' \
  "$root/examples/models/blog.yaml" "$json_model"
if [ "$("$bin" model check --json "$json_model")" = "$("$bin" model check --json "$root/examples/models/blog.yaml")" ]; then
  passed=$((passed + 1))
else
  echo "FAIL: the JSON form of blog.yaml gives another report"
  failed=$((failed + 1))
fi
rm -f "$json_model"
# A DynamoDB-Toolbox import (TableDTO + EntityDTOs) is a model check accepts; keys computed in
# code are warnings on stderr (import.key-template); the model validates against the JSON Schema.
toolbox_model=$(mktemp --suffix=.json)
toolbox_err=$("$bin" model import "$root"/tests/workbench/models/dynamodb-toolbox/table.json \
  "$root"/tests/workbench/models/dynamodb-toolbox/entities.json --from dynamodb-toolbox 2>&1 >"$toolbox_model")
if [ $? = 0 ] && grep -q "import.key-template (entity Order)" <<<"$toolbox_err" &&
  "$bin" model check "$toolbox_model" >/dev/null &&
  /usr/bin/python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])), cls=jsonschema.Draft202012Validator)' \
    "$root/docs/workbench/model.schema.json" "$toolbox_model"; then
  passed=$((passed + 1))
else
  echo "FAIL: the DynamoDB-Toolbox import should give a model that passes check: $toolbox_err"
  failed=$((failed + 1))
fi
rm -f "$toolbox_model"
# The examples also validate against the published JSON Schema.
if /usr/bin/python3 - "$root" <<'PY'
import json, pathlib, sys
import jsonschema, yaml
root = pathlib.Path(sys.argv[1])
schema = json.loads((root / "docs/workbench/model.schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(schema)
bad = 0
for path in sorted((root / "examples/models").glob("*.yaml")):
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(yaml.safe_load(path.read_text())))
    for e in errors:
        print(f"FAIL: {path.name} against model.schema.json: {list(e.absolute_path)}: {e.message}")
    bad += bool(errors)
sys.exit(1 if bad else 0)
PY
then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
