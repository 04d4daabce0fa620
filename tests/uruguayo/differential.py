"""Play the uruguayo-pytruco spec (uruguayo with every pytruco reading) and pytruco's Partida
side by side and compare the scores.

Both engines get the same scripted deals (the spec's `Deal`; pytruco's `Ronda.set_muestra`
and `Ronda.set_cartas`). At every decision a seat may take an action the spec allows it only
if pytruco, driven by its text commands (`Partida.parse_jugada`), also finds it legal
(`IJugada.ok`), and only in a situation the two vocabularies map (`UNMAPPED`). The chosen
action is applied to both, and after every hand both engines must agree that it ended and on
the score.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from pytruco.pdt.envite import EstadoEnvite
from pytruco.pdt.equipo import Equipo
from pytruco.pdt.partida import Partida

from tests.uruguayo.oracle import PYTRUCO_SPEC
from tests.uruguayo.pytruco_cards import carta, pytruco_name

from interpreter.engine.contests import only_declared
from interpreter.engine.game import Deal, Game, load_game
from interpreter.engine.state import State

# the spec's verbs and pytruco's words for them (Partida.parse_jugada)
VERBS = {"truco": "truco", "retruco": "re-truco", "vale_cuatro": "vale-4", "envido": "envido",
         "real_envido": "real-envido", "falta_envido": "falta-envido", "flor": "flor",
         "contraflor": "contra-flor", "contraflor_al_resto": "contra-flor-al-resto",
         "accept": "quiero", "decline": "no-quiero", "fold": "mazo"}
ENVIDOS = ("envido", "real_envido", "falta_envido")
FOLD_WEIGHT = 0.1      # a fold ends the hand: chosen rarely, so that most hands are played out

# Situations the two vocabularies do not map, each kept out of the comparison or compared
# loosely, and counted in Report.kept_out (docs/uruguayo.md):
UNMAPPED = {
    "envido with a flor unsung": "pytruco answers an envido call by singing the first unsung flor at the "
                                 "table for its holder (TocarEnvido.hacer), partner of the caller or not",
    "fold at 4 or 6": "pytruco's mazo takes one player out and his team plays on (IrseAlMazo.hacer)",
    "no quiero to a contraflor": "pytruco's code pays 3 per flor at the table plus 1 (ResponderNoQuiero.hacer), "
                                 "the spec 3 per flor of the raising team plus 1, as pytruco's comment there "
                                 "says",
    "two flors in a team at 4 or 6": "pytruco sings a partner's flor with one's own (CantarFlor.hacer, "
                                     "recursive), so such deals are dealt again",
    "a sung flor reaches the target before every seat has spoken":
        "pytruco scores a flor as it is sung (CantarFlor.hacer); the spec once every seat has sung or "
        "played its first card, so that the moment shows nothing of a hand not yet seen",
    "points past the target": "pytruco finishes scoring an action after the target is reached (the spec "
                              "stops there): at the match's end only the winner and the loser's score "
                              "are compared",
}


@dataclass
class Report:
    """What a run compared and what it found."""

    hands: int = 0
    actions: int = 0
    mismatches: list[str] = field(default_factory=list)
    kept_out: Counter = field(default_factory=Counter)
    chosen: Counter = field(default_factory=Counter)


class Duel:
    """One match played by the spec and by pytruco from the same deals."""

    def __init__(self, players: int, target: int, seed: int, report: Report,
                 options: dict[str, str] | None = None) -> None:
        chosen = {**(options or {}), "players": players, "target": target}
        self.game: Game = load_game(PYTRUCO_SPEC, chosen)
        self.rng = random.Random(seed)
        self.report = report
        self.names = [f"p{s}" for s in range(players)]
        self.partida = Partida(target, self.names[0::2], self.names[1::2], verbose=False)
        deal = self.deal()
        self.state: State = self.game.new_match(seed=seed, deals=[deal])
        self.load(deal)

    # -- deals ------------------------------------------------------------------------

    def deal(self) -> Deal:
        """A random deal; at 4 or 6, none where one team holds two flors."""
        ids = list(self.game.cards.ids)
        n = self.game.num_players
        while True:
            self.rng.shuffle(ids)
            hands = tuple(tuple(ids[3 * s:3 * s + 3]) for s in range(n))
            turned = ids[3 * n]
            if n == 2 or not self.team_flors(hands, turned):
                return Deal(hands, turned)
            self.report.kept_out["two flors in a team at 4 or 6"] += 1

    def team_flors(self, hands: tuple[tuple[str, ...], ...], turned: str) -> bool:
        idx = self.game.cards.index
        flor = self.game.values["flor"]
        holders = [s for s, h in enumerate(hands) if flor([idx[c] for c in h], idx[turned]) is not None]
        return any(a % 2 == b % 2 for a in holders for b in holders if a < b)

    def load(self, deal: Deal) -> None:
        ronda = self.partida.ronda
        ronda.set_muestra(carta(deal.turned))
        ronda.set_cartas([[carta(c) for c in hand] for hand in deal.hands])
        self.muestra = ronda.muestra
        self.log = [f"deal {[list(h) for h in deal.hands]} muestra {deal.turned}, mano {self.state.mano}, "
                    f"score {self.state.score}"]
        if ronda.el_mano != self.state.mano:
            self.fail(f"the mano: pytruco {ronda.el_mano}, the spec {self.state.mano}")

    # -- play -------------------------------------------------------------------------

    def command(self, seat: int, action: str) -> str:
        verb, _, arg = action.partition(" ")
        return f"{self.names[seat]} {pytruco_name(arg) if verb == 'play' else VERBS[verb]}"

    def unmapped(self, action: str) -> str | None:
        envite = self.partida.ronda.envite
        verb = action.split()[0]
        if verb in ENVIDOS and envite.sin_cantar:
            return "envido with a flor unsung"
        if verb == "fold" and self.game.num_players > 2:
            return "fold at 4 or 6"
        if verb == "decline" and envite.estado in (EstadoEnvite.CONTRAFLOR, EstadoEnvite.CONTRAFLORALRESTO):
            return "no quiero to a contraflor"
        return None

    def candidates(self) -> list[tuple[int, str]]:
        """(seat, action) pairs legal in the spec that pytruco also allows, in mapped situations.

        Every seat is asked, not only the one to act: a call may be answered by any seat of the
        asked team (`table.answer: any_opponent`), as pytruco's ResponderQuiero.ok allows."""
        out = []
        for seat in range(self.game.num_players):
            for action in self.state.legal_actions(seat):
                reason = self.unmapped(action)
                if reason is not None:
                    self.report.kept_out[reason] += 1
                    continue
                if self.partida.parse_jugada(self.command(seat, action)).ok(self.partida)[1]:
                    out.append((seat, action))
        return out

    def step(self) -> bool:
        """One action on both sides; False once the match is over or cannot go on."""
        options = self.candidates()
        if not options:
            seat = self.state.current_player()
            return self.fail(f"no action both engines allow; seat {seat} may {self.state.legal_actions()} "
                             f"in the spec")
        seat, action = self.rng.choices(options, [FOLD_WEIGHT if a == "fold" else 1 for _, a in options])[0]
        self.log.append(f"{seat} {action}")
        self.report.actions += 1
        self.report.chosen[action.split()[0]] += 1
        self.state.apply(action, seat=seat)
        self.partida.parse_jugada(self.command(seat, action)).hacer(self.partida)
        ours = self.state.hand_over
        theirs = self.partida.ronda.muestra is not self.muestra or self.partida.terminada()
        if theirs and not ours and any(only_declared(self.state, c) for c in self.game.contests):
            # pytruco scores a flor as it is sung; the spec once every seat has sung or played,
            # so a flor that reaches the target ends pytruco's match first
            self.report.kept_out["a sung flor reaches the target before every seat has spoken"] += 1
            return False
        if ours != theirs:
            return self.fail(f"the hand {'ended' if ours else 'goes on'} in the spec but not in pytruco")
        if not ours:
            return True
        self.report.hands += 1
        scores = [self.partida.puntajes[Equipo.AZUL], self.partida.puntajes[Equipo.ROJO]]
        if self.state.match_over != self.partida.terminada():
            return self.fail(f"the match ended in only one engine: pytruco {scores}, the spec {self.state.score}")
        if self.state.match_over:
            return self.same_end(scores)
        if scores != self.state.score:
            return self.fail(f"score after the hand: pytruco {scores}, the spec {self.state.score}")
        deal = self.deal()
        self.state.next_hand(deal)
        self.load(deal)
        return True

    def same_end(self, scores: list[int]) -> bool:
        """The same winner and loser's score. The spec ends the match the moment a team reaches
        the target (`match.end: immediately`); pytruco finishes the action first, so a refused
        envido and a fold in one action may carry its winner past the target."""
        winner = self.state.winner
        assert winner is not None
        target = self.game.target
        if scores[1 - winner] != self.state.score[1 - winner] or scores[winner] < target:
            return self.fail(f"the match's end: pytruco {scores}, the spec {self.state.score}")
        if scores[winner] != self.state.score[winner]:
            self.report.kept_out["points past the target"] += 1
        return False

    def fail(self, message: str) -> bool:
        self.report.mismatches.append(message + "\n    " + "\n    ".join(self.log))
        return False


def run(players: int, target: int, seeds: range, max_hands: int, options: dict[str, str] | None = None,
        stop_at_mismatch: bool = False) -> Report:
    """Whole matches from each seed until `max_hands` hands were compared; a mismatch ends
    its match (and the run, with `stop_at_mismatch`)."""
    report = Report()
    for seed in seeds:
        duel = Duel(players, target, seed, report, options)
        while report.hands < max_hands and duel.step():
            pass
        if report.hands >= max_hands or (stop_at_mismatch and report.mismatches):
            break
    return report
