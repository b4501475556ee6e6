"""The bundled JSON Schema is itself valid (checked here, never at run time), and validate loads
only what it uses."""
import os
import subprocess
import sys

from conftest import ROOT, sample


def test_bundled_schema_is_valid_against_the_metaschema():
    from jsonschema import Draft202012Validator

    from prio.yunikorn.lint.schema import load_schema

    Draft202012Validator.check_schema(load_schema())


def test_validator_is_built_once():
    from prio.yunikorn.lint.schema import validator

    assert validator() is validator()


def _modules_after(argv):
    code = (f"import sys; sys.argv={argv!r}\nfrom prio.cli.entry import main\ntry: main()\nexcept SystemExit: pass\n"
            "print('LOADED', sorted(m for m in sys.modules if m.startswith(('prio.', 'typer', 'jsonschema'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli")})
    line = next(l for l in out.stdout.splitlines() if l.startswith("LOADED"))
    return out, line


def test_validate_does_not_import_the_engine():
    out, loaded = _modules_after(["prio", "validate", sample("walkthrough-queues.yaml")])
    assert "'prio.yunikorn.engine'" not in loaded and "'prio.yunikorn.gosort'" not in loaded, loaded


def test_version_through_the_console_script_imports_nothing_else():
    out, loaded = _modules_after(["prio", "--version"])
    assert out.stdout.startswith("prio ")
    assert "typer" not in loaded and "prio.cli.app" not in loaded, loaded
