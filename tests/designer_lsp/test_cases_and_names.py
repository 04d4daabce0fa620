"""The server driven as an editor drives it on case files, card-valued options and the names of
`when:` entries, special hands and annulments."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from lsprotocol import types as lsp

from rulespec.load import bundled_dir
from tests.designer_lsp.editor import HOUSE, ROOT, Editor, session

from interpreter.designer.replay import CASE_KEYS, FACTS

PAULISTA = bundled_dir() / "paulista.yaml"
REGLAMENTO = bundled_dir() / "reglamento.yaml"
CARDS = {f"{r}{s}" for r in ("1", "2", "3", "4", "5", "6", "7", "10", "11", "12") for s in "eboc"}


async def _offered(e: Editor, path: Path, needle: str, offset: int | None = None) -> list[str]:
    where = e.where(path, needle, len(needle) if offset is None else offset)
    items = await e.client.text_document_completion_async(lsp.CompletionParams(e.doc(path), where))
    return [i.label for i in items.items]


def test_every_value_of_a_card_valued_option_completes_the_cards(tmp_path):
    """The first value too: nothing known of the option yet says it is not one."""
    house = tmp_path / "house.yaml"

    async def body(e: Editor) -> None:
        await e.open(house, "extends: teg\nname: house\noptions:\n  muestra:\n    values: [")
        first = await _offered(e, house, "values: [")
        assert CARDS <= set(first) and "10" in first            # a card, or every card of a rank
        await e.type(house, "1e, 7o]\n    default: ")
        assert await _offered(e, house, "default: ") == ["1e", "7o"]
        await e.change(house, "values: [1e, 7o]", "values:\n      - ")     # a block list's first item
        assert CARDS <= set(await _offered(e, house, "values:\n      - "))
        await e.change(house, "values:\n      - ", "values: [1e, ")
        await e.change(house, "  muestra:", "  target:")                      # teg's target is 15 or 30
        assert not CARDS & set(await _offered(e, house, "values: [1e, "))
    session(body)


# ("=label": take the offered item; anything else: typed)
HANDS = [["7c", "6c", "1e"], ["4o", "5b", "12e"], ["1b", "2c", "3o"], ["4c", "5o", "6e"]]
CASE_STEPS = [
    "=spec", "=teg", "\n",
    "=source", "\"Reglas del truco argentino, 'El envido': el envido se canta en la primera baza\"\n",
    "=options", "{", "=players", "=4", "}\n",
    "=cases", "\n  - ", "=name", "the envido at four, the next seat answers\n    ",
    "=hands", "\n",
    *[step for hand in HANDS for step in ["      - [", *[x for card in hand for x in (f"={card}", ", ")][:-1], "]\n"]],
    "    ", "=actions", "\n      - ", "=0", "=envido", "\n      - ",
    "=expect", "{", "=to_act", "=1", ", ", "=legal_includes", "[", "=accept", ", ", "=real_envido", "]}\n      - ",
    "=1", "=quiero", "\n      - {", "=reject", "=1", "=truco", ", ", "=because", "\"must announce\"}\n",
]


def test_a_case_file_from_an_empty_file_by_completion_alone(tmp_path):
    """Every key, option, seat, verb, alias and card below is one the server offered."""
    case = tmp_path / "case.yaml"
    case.write_text("", encoding="utf-8")
    seen: list[list[lsp.Diagnostic]] = []

    async def body(e: Editor) -> str:
        seen.append(await e.open(case))
        for step in CASE_STEPS:
            if step.startswith("="):
                items = await e.client.text_document_completion_async(lsp.CompletionParams(e.doc(case), e.end(case)))
                offered = {i.label: i for i in items.items}
                assert step[1:] in offered, (step, e.texts[case.resolve().as_uri()], sorted(offered))
                seen.append(await e.type(case, offered[step[1:]].insert_text or step[1:]))
            else:
                seen.append(await e.type(case, step))
        return e.texts[case.resolve().as_uri()]

    text = session(body, timeout=600)
    assert seen[-1] == [], seen[-1]
    assert any(d.code == "replay" for diags in seen for d in diags)     # replayed as it was typed
    assert "      - [7c, 6c, 1e]\n" in text and "      - 1 quiero\n" in text
    case.write_text(text, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "interpreter", "replay", str(case)], env=env, cwd=str(ROOT),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr


CASE = """spec: reglamento
options: {players: 4, }
cases:
  - name: facts and steps
    options: {flor: }
    dealer: 
    
    value_of: {name: , }
    deals:
      - hands: [[1e, 7o, 4c], [3e, 2b, 5o], [1b, 2c, 3c], [4o, 5c, 6c]]
        
    actions:
      - 2 
      - 3 play 
      - expect: {winner: , tricks: [], hand_over: , legal: [play , ]}
      - reject: 
  - {name: two seats, options: {players: 2}, dealer: }
"""


def test_a_case_file_completes_the_names_of_its_spec_where_the_format_takes_them(tmp_path):
    case = tmp_path / "case.yaml"
    case.write_text(CASE, encoding="utf-8")

    async def body(e: Editor) -> None:
        await e.open(case)
        options = await _offered(e, case, "{players: 4, ")
        assert {"flor", "maldon", "target"} <= set(options) and "players" not in options
        assert await _offered(e, case, "{flor: ") == ["false", "true"]
        assert await _offered(e, case, "    dealer: ") == ["0", "1", "2", "3"]        # the file's 4 players
        assert await _offered(e, case, "dealer: }", 8) == ["0", "1"]         # the case's own 2
        assert {"envido", "flor"} <= set(await _offered(e, case, "{name: "))
        assert await _offered(e, case, "{name: , ") == ["hand", "value"]
        assert await _offered(e, case, "6c]]\n        ") == ["vira"]       # a deal's other key
        steps = await _offered(e, case, "      - 2 ")
        assert {"envido", "truco", "maldon", "quiero", "mazo", "play"} <= set(steps)   # calls, annulments, aliases
        assert set(await _offered(e, case, "3 play ")) == CARDS
        assert await _offered(e, case, "{winner: ") == ["0", "1", "null"]
        assert await _offered(e, case, "tricks: [") == ["0", "1", "tie"]
        assert await _offered(e, case, "hand_over: ") == ["true", "false"]
        assert set(await _offered(e, case, "legal: [play ")) == CARDS
        legal = await _offered(e, case, "legal: [play , ")
        assert "accept" in legal and "quiero" not in legal          # legal actions are named without aliases
        assert await _offered(e, case, "reject: ") == ["0", "1", "2", "3"]
        keys = await _offered(e, case, "dealer: \n    ")
        assert "mid_hand" in keys and "dealer" not in keys and "actions" not in keys

        (tmp_path / "casa.yaml").write_text("extends: teg\nname: casa\n", encoding="utf-8")
        assert {"teg", "casa.yaml"} <= set(await _offered(e, case, "spec: "))      # a house variant beside it
        assert "case.yaml" not in await _offered(e, case, "spec: ")                  # a case file is no spec

        begun = tmp_path / "begun.yaml"          # a deal begun: reported, not a crash of the replay
        [d] = await e.open(begun, "spec: teg\ncases:\n  - name: x\n    deals:\n      - ")
        assert d.code == "replay" and "a deal is a mapping" in d.message
        assert await _offered(e, begun, "      - ") == ["hands", "vira"]
        assert await _offered(e, begun, "  - ") == [k for k in CASE_KEYS + FACTS if k != "deals"]   # deals: is below
    session(body)



def _lines(locations: list[lsp.Location]) -> set[tuple[str, int]]:
    return {(Path(loc.uri.removeprefix("file://")).name, loc.range.start.line) for loc in locations}


def test_references_and_definitions_of_when_entries_special_hands_and_annulments(tmp_path):
    house = tmp_path / "house.yaml"
    paulista = PAULISTA.read_text(encoding="utf-8")
    reglamento = REGLAMENTO.read_text(encoding="utf-8")

    def line_of(text: str, needle: str) -> int:
        return text[:text.index(needle)].count("\n")

    async def body(e: Editor) -> None:
        assert [d for d in await e.open(house, HOUSE) if d.severity == lsp.DiagnosticSeverity.Error] == []

        async def refs(needle: str, offset: int) -> set[tuple[str, int]]:
            return _lines(await e.client.text_document_references_async(lsp.ReferenceParams(
                context=lsp.ReferenceContext(True), text_document=e.doc(house), position=e.where(house, needle, offset))))

        async def goes(needle: str, offset: int) -> set[tuple[str, int]]:
            return _lines(await e.client.text_document_definition_async(lsp.DefinitionParams(
                e.doc(house), e.where(house, needle, offset))))

        # a `when` entry is named only where it is written: the base's and the variant's of one name merge
        base_when = ("paulista.yaml", line_of(paulista, "  three_pardas_mano:"))
        assert await refs("three_pardas_mano:", 3) == {("house.yaml", 3), base_when}
        assert await goes("three_pardas_mano:", 3) == {base_when}
        # a special hand: its declaration, a `when` entry's `set` that overrides it, its display labels
        iron = {("paulista.yaml", line_of(paulista, "  iron:\n")), ("paulista.yaml", line_of(paulista, "hands: {eleven")),
                ("house.yaml", 11), ("house.yaml", 14)}
        assert await refs("iron: {blind", 1) == iron
        assert await refs("{iron: Hand", 2) == iron
        assert await goes("{iron: Hand", 2) == {("paulista.yaml", line_of(paulista, "  iron:\n")), ("house.yaml", 11)}
        assert await refs("gentle:", 1) == {("house.yaml", 7)}

        # an annulment is a verb: the alias that stands for it refers to it, not to the option of its name
        await e.change(house, "extends: paulista", "extends: reglamento")
        await e.change(house, HOUSE[HOUSE.index("when:"):], "verbs:\n  me_achico: maldon\n")
        maldon = ("reglamento.yaml", line_of(reglamento, "annul:\n  maldon:") + 1)
        assert await refs("me_achico: maldon", 12) == {maldon, ("house.yaml", 3)}
        assert await goes("me_achico: maldon", 12) == {maldon}
    session(body)
