"""The workbench's result files: written whole or not at all, errors naming the user's path."""

from __future__ import annotations

import pytest


def test_result_files_errors_name_the_users_path(tmp_path, capsys):
    """The paper commands' JSON writer: an error names the file asked for, not a temporary."""
    from sftwave_paper.output import write_json_atomic, write_json_reporting

    target = tmp_path / "missing" / "r.json"
    assert write_json_reporting(target, {"a": 1}) == 1
    err = capsys.readouterr().err.strip()
    assert str(target) in err and ".tmp" not in err, err
    with pytest.raises(OSError) as info:
        write_json_atomic(target, {})
    assert info.value.filename == str(target)
