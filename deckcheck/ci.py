"""Validation reports for CI systems: JUnit XML, GitHub Actions annotations, SARIF 2.1.0."""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from deckcheck import __version__
from deckcheck.errors import UsageError
from deckcheck.i18n import _
from deckcheck.models import Report, Violation
from deckcheck.wording import listing

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFO_URI = "https://github.com/deckcheck/deckcheck#rule-ids"


def _card_list(v: Violation, limit: int = 6) -> str:
    """The violation's cards with their numbers (printings of one name differ by them), each
    card once: ``NAME (NUMBER) ×2``."""
    merged: dict[tuple[str | None, str], int] = {}
    for c in v.cards:
        merged[(c.number, c.name)] = merged.get((c.number, c.name), 0) + c.count
    return listing(
        f"{name} ({number}) ×{n}" if number else f"{name} ×{n}"
        for (number, name), n in list(merged.items())[:limit]
    )


def _text(v: Violation) -> str:
    cards = _card_list(v)
    parts = [f"{v.rule}: {v.message}"]
    if cards:
        parts.append(_("cards: {cards}", cards=cards))
    if v.fix:
        parts.append(_("fix: {fix}", fix=v.fix))
    parts.append(_("source: {source}", source=v.source))
    return "\n".join(parts)


def _with_fix(v: Violation) -> str:
    """The message and, if there is one, its fix: ``… (fix: …)``."""
    return _("{message} (fix: {fix})", message=v.message, fix=v.fix) if v.fix else v.message


def junit(reports: Sequence[Report]) -> str:
    """One ``testcase`` per deck, named after its file; an illegal deck has a ``failure``
    listing its errors; warnings go to ``system-out``."""
    failures = sum(not r.legal for r in reports)
    suites = ET.Element(
        "testsuites", name="deckcheck", tests=str(len(reports)), failures=str(failures), errors="0"
    )
    suite = ET.SubElement(
        suites,
        "testsuite",
        name="deckcheck validate",
        tests=str(len(reports)),
        failures=str(failures),
        errors="0",
        skipped="0",
    )
    for rep in reports:
        case = ET.SubElement(
            suite, "testcase", name=rep.path or "(deck)", classname=f"deckcheck.{rep.format}"
        )
        errors = rep.errors
        if errors:
            failure = ET.SubElement(
                case,
                "failure",
                type="illegal deck",
                message=_(
                    "{n} violation(s): {rules}",
                    n=len(errors),
                    rules=", ".join(v.rule for v in errors),
                ),
            )
            failure.text = "\n\n".join(
                _("line {n}: {text}", n=v.line, text=_text(v)) for v in errors
            )
        if rep.warnings:
            out = ET.SubElement(case, "system-out")
            out.text = "\n\n".join(
                _("warning, line {n}: {text}", n=v.line, text=_text(v)) for v in rep.warnings
            )
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github(reports: Sequence[Report]) -> str:
    """``::error file=PATH,line=N::rule: message`` per error, ``::warning`` per warning."""
    lines = []
    for rep in reports:
        for v in rep.violations:
            command = "error" if v.severity == "error" else "warning"
            where = f"file={_escape_property(rep.path or '')},line={v.line or 1}"
            title = f"title={_escape_property(v.rule)}"
            message = f"{v.rule}: {_with_fix(v)}"
            lines.append(f"::{command} {where},{title}::{_escape_data(message)}")
    return "\n".join(lines) + ("\n" if lines else "")


def notice(text: str) -> str:
    """A ``::notice`` command: the run's summary line among the annotations."""
    return f"::notice title=deckcheck::{_escape_data(text)}\n"


def sarif(reports: Sequence[Report]) -> dict[str, Any]:
    """SARIF 2.1.0: one rule per rule id, a result with a location per violation."""
    rules: dict[str, dict[str, Any]] = {}
    results = []
    for rep in reports:
        for v in rep.violations:
            if v.rule not in rules:
                rules[v.rule] = {
                    "id": v.rule,
                    "name": v.rule.replace("/", "-"),
                    "shortDescription": {"text": v.rule},
                    "fullDescription": {"text": v.source},
                    "helpUri": INFO_URI,
                    "defaultConfiguration": {"level": v.severity},
                }
            uri = Path(rep.path or "deck").as_posix()
            results.append(
                {
                    "ruleId": v.rule,
                    "ruleIndex": list(rules).index(v.rule),
                    "level": v.severity,
                    "message": {"text": _with_fix(v)},
                    "locations": [
                        {
                            "physicalLocation": {
                                "artifactLocation": {"uri": uri},
                                "region": {"startLine": v.line or 1},
                            }
                        }
                    ],
                }
            )
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "deckcheck",
                        "version": __version__,
                        "informationUri": INFO_URI,
                        "rules": list(rules.values()),
                    }
                },
                "results": results,
            }
        ],
    }


class GitError(UsageError):
    """git could not say which files changed."""


def changed_since(rev: str, cwd: Path | None = None) -> set[Path]:
    """Files changed since ``rev`` (committed, staged, or in the working tree) and untracked
    files, as resolved paths."""

    def git(*args: str) -> list[str]:
        try:
            done = subprocess.run(
                ["git", *args], cwd=cwd, capture_output=True, text=True, check=False
            )
        except OSError as exc:
            raise GitError(_("cannot run git: {error}", error=exc)) from exc
        if done.returncode != 0:
            raise GitError(done.stderr.strip() or _("git {args} failed", args=" ".join(args)))
        return [line for line in done.stdout.splitlines() if line]

    top = Path(git("rev-parse", "--show-toplevel")[0])
    names = git("diff", "--name-only", "--diff-filter=ACMR", rev, "--")
    names += git("ls-files", "--others", "--exclude-standard")
    return {(top / name).resolve() for name in names}
