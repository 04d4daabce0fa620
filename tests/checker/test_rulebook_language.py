"""A bundled spec's rulebook speaks its rulebook's language throughout: the notes and docs its
designer wrote are in the spec's `language:` (a string) or given per language (a mapping), and
`truco rules --lang X` marks a note it has to borrow from another language."""
from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulespec.errors import SpecError
from rulespec.load import bundled_names

from interpreter.designer.rulebook import render
from interpreter.engine.game import load_game

SPECS = bundled_names()
BASE = Path(__file__).parents[2] / "specs" / "bases" / "argentina.yaml"

# Words that only (or mostly) one of the languages writes: enough to tell an English sentence
# from a Spanish or French one, not a language detector.
WORDS = {
    "en": {"the", "and", "is", "of", "which", "when", "it", "not", "does", "to", "or", "are", "with",
           "only", "its", "by", "who", "each", "at", "on", "may", "be", "that", "what", "plus"},
    "es": {"el", "la", "los", "las", "y", "es", "del", "que", "no", "un", "una", "se", "por", "con",
           "su", "o", "al", "cuando", "lo", "para", "solo", "cada", "más"},
    "fr": {"le", "la", "les", "et", "est", "des", "du", "que", "ne", "pas", "un", "une", "se", "par",
           "avec", "son", "ou", "au", "aux", "quand", "qui", "il", "ce", "à", "plus"},
}
MARK = {"en": "[not translated, ", "es": "[sin traducir, ", "fr": "[non traduit, "}


def language_of(text: str) -> str | None:
    """The language whose words `text` uses most, None when no language leads by two words."""
    words = re.findall(r"[a-zà-ÿ]+", text.lower())
    scores = sorted(((sum(w in ws for w in words), lang) for lang, ws in WORDS.items()), reverse=True)
    (best, lang), (second, _) = scores[0], scores[1]
    return lang if best >= second + 2 else None


def prose(node: Any, path: tuple = ()) -> list[tuple[tuple, Any]]:
    """Every `note:` and `doc:` of a spec tree (its `when` overrides included), with its path."""
    if isinstance(node, dict):
        return [item for k, v in node.items()
                for item in ([(path + (k,), v)] if k in ("note", "doc") else prose(v, path + (k,)))]
    if isinstance(node, list):
        return [item for i, v in enumerate(node) for item in prose(v, path + (i,))]
    return []


@functools.cache
def own(name: str) -> str:
    return render(load_game(name))


def test_the_detector_tells_the_languages_apart() -> None:
    assert language_of("The rulebook does not say when the match ends.") == "en"
    assert language_of("El reglamento no dice cuándo termina el partido.") == "es"
    assert language_of("Le règlement ne dit pas quand la partie se termine.") == "fr"
    assert language_of("pytruco Partida.cantar_contra_flor: 'puntaje = 4'") is None


@pytest.mark.parametrize("name", SPECS)
def test_every_note_and_doc_is_written_in_the_spec_language(name: str) -> None:
    """A mapping has the spec's language; a string is in it (no English note in an es or fr spec)."""
    spec = load_game(name).spec
    wrong = []
    for path, value in prose(spec.raw.data):
        text = value.get(spec.language) if isinstance(value, dict) else value
        if text is None or language_of(text) not in (spec.language, None):
            wrong.append(f"{'.'.join(map(str, path))}: {str(value)[:80]}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("name", SPECS)
def test_rulebook_in_its_own_language_borrows_no_note(name: str) -> None:
    """The notes printed (_Nota:_ ..., option docs) are all in the rulebook's language."""
    spec = load_game(name).spec
    text = own(name)
    assert MARK.get(spec.language, "[") not in text
    notes = [line for line in text.splitlines() if line.startswith("_") and ":_ " in line]
    assert notes
    other = [line for line in notes if language_of(line) not in (spec.language, None)]
    assert not other, "\n".join(other)


def test_a_note_in_another_language_is_marked() -> None:
    """teg's notes are written in Spanish and English: its French rulebook prints them marked; the
    base's notes, written in English too, are printed unmarked in reglamento's English book."""
    assert "_Remarque :_ [non traduit, es] El reglamento no dice cuándo termina el partido" in render(
        load_game("teg"), language="fr")
    english = render(load_game("reglamento"), language="en")
    assert "[not translated, fr] 'Si elle est jouée'" not in english
    assert "_Note:_ 'Si elle est jouée' leaves the flor to its holder" in english


def test_a_borrowed_text_is_marked_with_its_language_in_html() -> None:
    """Issue 35: a doc or note in another language carries its language in the HTML book (a span
    with `lang`, read by browsers and screen readers as that language), besides the visible mark;
    the Markdown book holds no trace of the span."""
    html = render(load_game("paulista"), "html", language="en")
    assert '[not translated, fr] <span lang="fr">Quatre joueurs en deux paires.</span>' in html
    assert html.count('<span lang="fr">') == html.count("[not translated, fr]")
    markdown = render(load_game("paulista"), language="en")
    assert "[not translated, fr] Quatre joueurs en deux paires." in markdown
    assert not re.search("[\ue000-\ue002]", markdown)


def test_reglamento_reads_in_english_without_a_mark() -> None:
    """reglamento's notes and option docs are written in French and English: its English book,
    under every option that brings a note of its own, prints none marked untranslated, and its
    French book keeps the French text."""
    options = {"flor": True, "contraflor_6": True, "maldon": True, "reales": True, "falta_half": True}
    english = render(load_game("reglamento", **options), language="en")
    assert "[not translated, " not in english
    assert "_Note:_ « Autant qu'on veut » (as often as one likes): a call may be repeated" in english
    assert "While both teams are in the malas, the falta is worth only" in english
    assert "the annulled deal is over like any deal that ends" in english
    french = own("reglamento")
    assert "« Autant qu'on veut » : un chant peut être répété autant que les joueurs le veulent" in french
    assert "(as often as one likes)" not in french


def test_a_variant_note_replaces_the_base_note_in_every_language(tmp_path: Path) -> None:
    """A note {es: ...} over the base's {en, es, fr} is another note: the base's English text
    does not survive beside it."""
    spec = tmp_path / "casa.yaml"
    spec.write_text(f"name: casa\nlanguage: es\nextends: {BASE}\n"
                    "contests:\n  flor:\n    note: {es: La flor de la casa.}\n", encoding="utf-8")
    flor = next(c for c in load_game(str(spec), flor=True).spec.contests if c.name == "flor")
    assert flor.cited.note is not None and flor.cited.note.texts == (("es", "La flor de la casa."),)
    assert "[not translated, es] La flor de la casa." in render(load_game(str(spec), flor=True), language="en")


def test_a_note_in_an_unknown_language_is_refused(tmp_path: Path) -> None:
    spec = tmp_path / "casa.yaml"
    spec.write_text(f"name: casa\nextends: {BASE}\nmatch:\n  note: {{it: La partita.}}\n", encoding="utf-8")
    with pytest.raises(SpecError, match="note"):
        load_game(str(spec))


@pytest.mark.parametrize("flor", [False, True])
def test_teg_reads_in_english_throughout(flor: bool) -> None:
    """teg gives every note and doc in English beside its Spanish (`{es: ..., en: ...}`): its
    English rulebook, with or without flor, borrows no note, and each note it prints is English."""
    text = render(load_game("teg", flor=flor), language="en")
    assert MARK["en"] not in text
    notes = [line for line in text.splitlines() if line.startswith("_Note:_ ")]
    assert len(notes) >= 10
    assert "_Note:_ The rulebook does not say when the match ends; it ends as soon as a team reaches the points." \
        in notes
    assert all(language_of(line) in ("en", None) for line in notes), [
        line for line in notes if language_of(line) not in ("en", None)]


def test_teg_gives_every_note_in_spanish_and_english() -> None:
    """Every note and doc teg writes is a mapping with both languages (a new one must be too)."""
    raw = yaml.safe_load((BASE.parents[1] / "teg.yaml").read_text(encoding="utf-8"))
    single = [".".join(map(str, path)) for path, value in prose(raw)
              if not (isinstance(value, dict) and {"es", "en"} <= set(value))]
    assert not single, single
