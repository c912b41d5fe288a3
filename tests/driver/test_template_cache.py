"""Tier 1: compiled templates are cached per jinja2 release. Code compiled by one release is not
code for another (CI's oldest leg, jinja2 3.0, read 3.1's from a shared cache and every render
failed on environment.concat), and jinja2 does not key its bytecode by its own version."""
import jinja2

from ompgpu.codegen import render


def test_compiled_templates_are_kept_per_jinja2_release(tmp_path, monkeypatch):
    monkeypatch.setenv("OMPGPU_CACHE", str(tmp_path))
    render._env.cache_clear()
    try:
        render.render("team.j2")   # any template: fills the cache
    except jinja2.TemplateError:
        pass
    finally:
        render._env.cache_clear()
    folders = [p for p in tmp_path.iterdir() if any(p.iterdir())]
    assert [p.name for p in folders] == [f"templates-jinja2-{jinja2.__version__}"]
