"""Hover, driven as an editor drives it, where a named entry is used and where a variant changes
what its base cites."""
from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp

from rulespec.load import bundled_dir
from tests.designer_lsp.editor import HOUSE, ROOT, Editor, session

PAULISTA = bundled_dir() / "paulista.yaml"
REGLAMENTO = bundled_dir() / "reglamento.yaml"

ACHICO = """extends: reglamento
name: house
verbs:
  me_achico: maldon
display:
  es:
    calls: {maldon: Me voy al mazo}
"""


async def _hover(e: Editor, path: Path, needle: str, offset: int) -> str:
    got = await e.client.text_document_hover_async(lsp.HoverParams(e.doc(path), e.where(path, needle, offset)))
    assert got is not None, needle
    assert isinstance(got.contents, lsp.MarkupContent)
    return got.contents.value


def test_a_special_hand_annulment_or_when_entry_hovers_where_used_as_where_declared(tmp_path):
    """Paulista: "Iron Hand - Lorsque les deux paires sont à 11 points ... les joueurs ne peuvent
    pas voir leurs cartes" (`if: min_score == target - 1`); Reglamento: "Maldón — deux 4 et une
    figure : le joueur peut annuler la donne"."""
    house = tmp_path / "house.yaml"

    async def body(e: Editor) -> None:
        await e.open(PAULISTA)
        declared = await _hover(e, PAULISTA, "  iron:\n", 3)
        assert "Special hand" in declared and "both teams are one point from winning" in declared
        assert "`min_score == target - 1`" in declared and "source: Iron Hand - Lorsque" in declared
        await e.open(house, HOUSE)
        assert await _hover(e, house, "iron: {blind", 1) == declared            # a `when`'s set overrides it
        assert await _hover(e, house, "{iron: Hand", 2) == declared             # a display label names it
        entry = await _hover(e, house, "three_pardas_mano:", 3)                 # a `when` entry: its rule
        assert "Override" in entry and "the table option three pardas is mano" in entry
        assert "`options.three_pardas == 'mano'`" in entry

        await e.open(REGLAMENTO)
        maldon = await _hover(e, REGLAMENTO, "annul:\n  maldon:", len("annul:\n  ") + 1)
        assert "Annulment" in maldon and "the number of cards of rank 4 is 2" in maldon
        assert "`rank_count(4) == 2 and figures == 1`" in maldon
        assert "source: Maldón — deux 4 et une figure" in maldon
        await e.change(house, HOUSE, ACHICO)
        alias = await _hover(e, house, "me_achico: maldon", 12)                 # the verb an alias stands for
        assert alias == maldon and "Quiero ferme" not in alias                  # not the `verbs:` citation
        assert await _hover(e, house, "{maldon: Me", 2) == maldon
    session(body)


FLOR = """extends: reglamento
name: house
contests:
  flor:
    calls:
      flor: {worth: 4}
"""


def test_a_value_a_variant_changes_without_a_source_shows_the_base_citation_as_the_base_s(tmp_path):
    """Reglamento cites "Si un seul camp a une flor, il marque 3 points par flor annoncée": a house
    that writes 4 must not show that citation as if it said 4."""
    house = tmp_path / "house.yaml"

    async def body(e: Editor) -> None:
        await e.open(house, FLOR)
        changed = await _hover(e, house, "flor: {worth", 1)
        assert "worth: `4`" in changed
        assert "**changed by this variant**: `worth: 4` (base: `3`)" in changed
        assert "base: Reglamento: 'Si un seul camp a une flor" in changed
        assert "\nsource:" not in changed and not changed.startswith("source:")
        assert "(base: `3`)" in await _hover(e, house, "worth: 4", 8)          # on the value too

        await e.change(house, "{worth: 4}", "{worth: 3}")                       # the base's value: its citation
        same = await _hover(e, house, "flor: {worth", 1)
        assert "source: Reglamento: 'Si un seul camp a une flor" in same and "changed" not in same

        await e.change(house, "{worth: 3}", '{worth: 4, source: "la casa: 4 por flor"}')
        own = await _hover(e, house, "flor: {worth", 1)
        assert "source: la casa: 4 por flor" in own and "base:" not in own and "changed" not in own
    session(body)


CASE = """spec: teg
cases:
  - name: the envido answered
    hands:
      - [7c, 6c, 1e]
      - [4o, 5b, 12e]
    actions:
      - 0 envido
      - 1 quiero
      - expect: {to_act: 0, hand_over: false}
"""


def test_a_case_file_key_hovers_its_meaning_and_an_action_goes_to_its_declaration_in_the_spec(tmp_path):
    case = tmp_path / "case.yaml"
    teg = (bundled_dir() / "teg.yaml").read_text(encoding="utf-8")

    def line_of(needle: str) -> int:
        return teg[:teg.index(needle)].count("\n")

    async def body(e: Editor) -> None:
        await e.open(case, CASE)
        assert "the deal: one list of cards per seat, seat 0 first" in await _hover(e, case, "hands:", 1)
        assert "checks the state after the steps before it" in await _hover(e, case, "expect:", 1)
        assert "seat `s` decides next" in await _hover(e, case, "to_act", 1)        # a key in a flow mapping
        assert "the hand, the match has ended or not" in await _hover(e, case, "hand_over", 1)

        async def goes(needle: str, offset: int) -> set[tuple[str, int]]:
            found = await e.client.text_document_definition_async(lsp.DefinitionParams(
                e.doc(case), e.where(case, needle, offset)))
            return {(Path(loc.uri.removeprefix("file://")).name, loc.range.start.line) for loc in found}

        # the call, not the contest or the hand value spelled alike; an alias, where `verbs:` gives it
        assert await goes("0 envido", 3) == {("teg.yaml", line_of("      envido: {worth: 2"))}
        assert await goes("1 quiero", 3) == {("teg.yaml", line_of("  quiero: accept"))}
    session(body)


def test_the_meanings_of_case_file_keys_are_those_of_the_format_s_reference():
    """Every key `truco replay` accepts has a meaning, in docs/conformance.md's words."""
    from interpreter.designer.lsp import cases
    doc = " ".join((ROOT / "docs" / "conformance.md").read_text(encoding="utf-8").split())
    for path, keys in cases.KEYS.items():
        for key in keys:
            assert cases.meaning(path, key) is not None, (path, key)
    for meanings in cases.MEANINGS.values():
        for said in meanings.values():
            assert said in doc, said
