"""What the audit of the bundled rulebooks against their seeds (docs/rulebook-audit.md) fixed:
each test quotes the seed's clause and checks that the rulebook, in its own language, states it."""
from __future__ import annotations

import functools
import re

from interpreter.designer.rulebook import render
from interpreter.engine.game import load_game


@functools.cache
def own(name: str) -> str:
    return render(load_game(name))


def article(text: str, title: str) -> str:
    """The body of the article whose title is `title`, in any language ("## Artículo 6. ...")."""
    m = re.search(rf"^## \w+ \d+\. {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert m, f"no article {title!r}"
    return m.group(1)


def test_son_buenas_whatever_one_holds() -> None:
    """Seed 002: 'Cuando el otro canta su tanto, uno no está obligado a decir el suyo: si sabe
    que perdió —o si no quiere mostrar lo que tiene— dice «son buenas» y se acabó.'"""
    envido = article(own("teg"), "Envido: los cantos y lo que pagan")
    assert "En lugar de cantar sus tantos, un jugador puede decir «son buenas» sin mostrarlos" in envido
    board = article(render(load_game("board")), "The envido: calls and what they pay")
    assert ("A player may concede without showing (\"Yours are good\") when the player's value cannot beat the best "
            "value an opponent has announced") in board


def test_the_count_goes_round_the_table_in_order() -> None:
    """Seed 000: 'chacun annonce ses points en partant de la mano. Celui qui ne peut pas battre ce
    qui a déjà été annoncé dit « son buenas »'; seed 004: 'Announcing starts at the lead and goes
    to the right.' The rulebooks say each player speaks once, in the order of play, and what
    conceding requires."""
    envido = article(own("reglamento"), "Envido : les annonces et ce qu'elles rapportent")
    assert ("chaque joueur annonce ses points une fois, dans l'ordre du jeu depuis la mano. Un joueur n'annonce ses "
            "points que quand les points du joueur battent le meilleur de ce qui a déjà été annoncé.") in envido
    assert "« son buenas ») quand les points du joueur ne peuvent pas battre ce qui a déjà été annoncé" in envido
    board = article(render(load_game("board")), "The envido: calls and what they pay")
    assert "each player says his points once, in the order of play from the mano" in board


def test_no_obligation_to_follow_suit() -> None:
    """Seed 000: 'La plus forte carte remporte la levée, sans obligation de fournir.' Seed 004:
    'There is no obligation to follow suit.'"""
    assert "il n'y a pas d'obligation de fournir" in article(own("reglamento"), "Les levées et les pardas")
    assert "there is no need to follow suit" in article(own("board"), "Tricks and ties")


def test_an_accept_closes_the_envido() -> None:
    """Seed 000: 'Quiero ferme les enchères — « quiero, envido » ne relance rien du tout.'"""
    envido = article(own("reglamento"), "Envido : les annonces et ce qu'elles rapportent")
    assert "Accepter ferme la suite : plus aucune annonce ne la relance." in envido


def test_points_already_scored_stand_after_a_fold() -> None:
    """Seed 000: 'Ir al mazo ... L'adversaire encaisse la mise en cours ; les points de flor et
    d'envido déjà marqués restent acquis.' Paulista has no envido: nothing to say there."""
    assert "Les points déjà marqués dans la donne restent acquis." in article(own("reglamento"), "Quitter la donne")
    assert "restent acquis" not in article(own("paulista"), "Quitter la donne")


def test_suits_are_named() -> None:
    """Seed 000: 'dans quatre palos — espadas (épées), bastos (bâtons), oros (ors) et copas';
    seed 003: 'Ordre des couleurs des manilles (de la plus petite à la plus grande) : or, pique,
    cœur et trèfle'; seed 001: 'l'as d'épée (1♠), l'as de bâton (1♣) ... le 7 de denier (7♦)'."""
    assert "dans les couleurs espadas (e), bastos (b), oros (o), copas (c)" in own("reglamento")
    assert "dans les couleurs or (d), pique (s), cœur (h), trèfle (c)" in own("paulista")
    assert "dans les couleurs épées ♠ (s), bâtons ♣ (c), deniers ♦ (d), coupes ♥ (h)" in own("vanikar")
    assert "de los palos espadas (e), bastos (b), oros (o), copas (c)" in own("teg")


def test_special_hands_by_the_seed_names() -> None:
    """Seed 003: 'Main de 11 - Quand l'une des paire est à 11 points. Iron Hand ? Lorsque les deux
    paires sont à 11 points.'"""
    text = own("paulista")
    assert "**Main de 11**, quand une équipe est à un point de la victoire" in text
    assert "**Iron Hand**, quand les deux équipes sont à un point de la victoire" in text
    assert "**eleven**" not in text and "**iron**" not in text


def test_french_contractions() -> None:
    """'inférieur à les points' is not French: the sentences read from formulas contract it."""
    options = own("paulista")
    assert "est inférieur aux points qu'il faut pour gagner la partie" in options
    assert not re.search(r"\b(à|de) (les|le)\b", options.replace("de le faire", ""))


def test_fold_while_answering_a_stake_call() -> None:
    """Seed 001: 'FOLD : à votre tour, ou en répondant à un Truco, Fold abandonne la donne'."""
    fold = article(own("vanikar"), "Quitter la donne")
    assert "quand c'est au tour du joueur, aucune annonce n'attend de réponse et aucun décompte n'est en cours " \
        "ou le joueur répond à une enchère" in fold
    assert "à la fois" not in fold


def test_one_envido_per_hand() -> None:
    """Seed 001: 'Il reste ouvert jusqu'à ce que le premier pli soit terminé, qu'un Envido soit
    répondu ou qu'un Truco soit accepté'."""
    envido = article(own("vanikar"), "Envido : les annonces et ce qu'elles rapportent")
    assert "Une fois sa suite réglée, on ne la rouvre plus dans la donne." in envido
    assert "on ne la rouvre plus" not in article(own("reglamento"), "Flor : les annonces et ce qu'elles rapportent")


def test_no_fold_during_the_count() -> None:
    """Seed 004: 'You cannot fold during the announcement. Folding is for your own turn, or for the
    moment you are the one being asked.'"""
    fold = article(own("board"), "Leaving the hand")
    assert ("when it is the player's turn (not while a count is under way) or the player is answering a call"
            in fold)


def test_glossary_gives_the_board_words() -> None:
    """Seed 004: 'A few traditional names are listed once here so a written rule can be matched
    to the table' — the glossary lists the board's words (Match envido, Flower, Yours are good),
    each with the traditional name it stands for."""
    glossary = article(own("board"), "Glossary of the calls")
    assert "| Match envido | a call of the envido | falta envido |" in glossary
    assert "| Yours are good | concedes the count without showing | good |" in glossary
    assert "| Flower | declares the Flower | flor |" in glossary


def test_the_board_words_name_the_calls_in_every_article() -> None:
    """Seed 004 writes its rules with its own words: 'Match envido is worth the target minus the
    higher team's score'; 'Yours are good is legal only when you cannot beat the best value an
    opponent has already announced'; 'Three cards of one suit are a flower'. Where the spec
    declares display words for its calls (`display: en: calls`), the articles use them — the
    traditional names stay only in the glossary's "Also said" column."""
    book = render(load_game("board", flor=True))
    envido = article(book, "The envido: calls and what they pay")
    assert "- **Match envido** (worth what the leading team lacks to win the match):" in envido
    assert "| envido, real envido, Match envido | 30 * | 5 |" in envido
    assert "seat 0 Match envido, seat 1 accept" in envido
    assert "(\"Yours are good\")" in envido
    assert "**Flower** (worth 3)" in article(book, "The Flower: calls and what they pay")
    body = book[:book.index("Glossary of the calls")]
    quoted = re.sub(r"^(> Source:|_Note:_).*$", "", body, flags=re.M)   # the spec's own texts
    assert "falta envido" not in re.sub(r"^(#|.*falta after other calls|An accepted falta).*$", "", quoted,
                                        flags=re.M)
    assert "good\")" not in body.replace("Yours are good", "")


def test_a_spec_without_display_words_keeps_its_call_names() -> None:
    """teg declares no display words for its calls: its rulebook names them as the spec does."""
    assert "**falta envido** (vale" in own("teg")


def test_a_call_says_what_it_pays_when_it_says_more_than_its_worth() -> None:
    """Seed 000: 'Con flor me achico | Je me couche. L'adversaire marque ses flors + 1 point.';
    seed 002: 'Contraflor: la canta el que también tiene flor. 6 si se la quieren, 4 si no.'"""
    flor = article(render(load_game("reglamento", flor=True)), "Flor : les annonces et ce qu'elles rapportent")
    assert ("**flor** (vaut 3) : c'est une déclaration : seule une main qui l'a peut la faire, une fois par joueur ; "
            "l'adversaire suivant qui en a une aussi doit y répondre aussitôt ; acceptée, elle rapporte 3 fois le "
            "nombre de mains comparées ; refusée, elle rapporte le produit de 3 par le nombre de mains de l'équipe "
            "qui a annoncé comparées plus 1.") in flor
    teg = article(render(load_game("teg", flor=True)), "Flor: los cantos y lo que pagan")
    assert "**contraflor** (vale 6): puede responder a flor; querido, paga 6; no querido, paga 4." in teg


def test_the_board_states_its_deal() -> None:
    """Seed 004: 'Shuffle and deal three cards to each player, one at a time, face down, starting
    at the lead. The rest of the deck is out of play.' The board rulebook's first article says so,
    quoting the seed (the base's deck cites another rulebook)."""
    players = article(own("board"), "Players and cards")
    assert "> Source: The Spanish deck: oros, copas, espadas, and bastos" in players
    assert "starting at the lead. The rest of the deck is out of play." in players
    assert ("_Note:_ The deal: the dealer shuffles and gives three cards to each player, one at a time, face down, "
            "starting at the lead") in players
    assert "Quarante cartes" not in players


def test_the_signs_and_their_gestures() -> None:
    """Seed 002: 'Las tres clásicas, para avisar qué carta brava se tiene: 1 de espada: morderse el
    labio de abajo. 1 de basto: fruncir las cejas. 7 de espada: abrir la boca, o levantar el hombro
    derecho. 7 de oro: levantar el hombro izquierdo. ... llega sola al compañero y el rival no la ve.'
    Seed 000: '| As d'épée | Lever les sourcils | ... | Bon envido | Pencher la tête sur le côté |
    Sur ce site, une seña envoyée est visible de toute la table'. Each has an article of its own
    that lists every seña with its gesture, in the rulebook's language (`display: <lang>: signals`)."""
    teg = article(own("teg"), "Las señas")
    assert "Señas (sena) a los compañeros:" in teg
    for line in ("- **ancho espada** — 1 de espada: morderse el labio de abajo",
                 "- **ancho basto** — 1 de basto: fruncir las cejas",
                 "- **siete espada** — 7 de espada: abrir la boca, o levantar el hombro derecho",
                 "- **siete oro** — 7 de oro: levantar el hombro izquierdo"):
        assert line in teg
    reglamento = article(own("reglamento"), "Les señas")
    assert "Signes (sena), vus de toute la table :" in reglamento
    gestures = re.findall(r"^- \*\*[^*]+\*\* — (.+)$", reglamento, re.M)
    assert gestures[0] == "as d'épée : lever les sourcils" and len(gestures) == 8
    assert gestures[-1] == "bon envido : pencher la tête sur le côté"


def test_signs_without_gestures_in_the_book_language() -> None:
    """A book in a language the spec gives no gestures in still lists the signs, without them."""
    english = article(render(load_game("teg"), language="en"), "Signs")
    assert "Signs (sena) to one's partners: ancho espada, ancho basto, siete espada, siete oro." in english
    assert "morderse" not in english.split("> Source:")[0]


def test_any_spec_display_words_name_its_calls(tmp_path) -> None:
    """Generic: a house variant of teg that gives its own Spanish words for calls and verbs
    (`display: es: calls`) reads with them in its Spanish rulebook — call lines, payoff tables,
    worked examples and the count's concession — and its glossary gives teg's names beside them."""
    spec = tmp_path / "casa.yaml"
    spec.write_text("name: casa\nextends: teg\ndisplay:\n  es:\n    calls:\n"
                    "      falta_envido: la falta\n      real_envido: el real\n      good: están buenas\n"
                    "      accept: quiero nomás\n", encoding="utf-8")
    book = render(load_game(str(spec)))
    envido = article(book, "Envido: los cantos y lo que pagan")
    assert "**la falta** (vale" in envido and "**el real** (vale" in envido
    assert "| envido, el real, la falta |" in envido
    assert "«están buenas»" in envido
    assert "quiero nomás" in envido                          # a worked example's accept
    rules = re.sub(r"^(> Fuente:|_Nota:_).*$", "", envido, flags=re.M)     # teg's own quotes and notes
    assert "falta envido" not in rules and "real envido" not in rules
    glossary = article(book, "Glosario de los cantos")
    assert "| la falta | un canto de envido | falta envido |" in glossary
    assert "| quiero nomás |" in glossary


def test_the_glossary_never_says_a_word_again_beside_itself() -> None:
    """Issue 35: teg's glossary read "| quiero | acepta … | quiero |": its alias is the book's own
    word. The "also said" column lists only other words."""
    glossary = article(render(load_game("teg")), "Glosario de los cantos")
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in glossary.splitlines()
            if line.startswith("| ") and "---" not in line][1:]
    assert rows and all(word.lower() not in [w.strip().lower() for w in also.split(",")] for word, _, also in rows)
    assert ["quiero", "acepta el canto que espera respuesta", ""] in rows
    assert ["irse al mazo", "se va de la mano", "mazo"] in rows


def test_the_board_names_its_hand_values_by_its_own_words() -> None:
    """Seed 004: 'Your own hand prints its envido as Points.' The board's `display: en: values`
    labels name its hand values in the rulebook's article on them, where the value is named."""
    values = article(render(load_game("board")), "Counting the hands")
    assert "### Points" in values and "How it is counted (Points): 20 plus" in values
    assert "| Hand | Points |" in values
    assert "### Flower" in values and "How it is counted (Flower):" in values
    assert "(envido)" not in values and "| Hand | envido |" not in values


def test_any_spec_display_words_name_its_values_and_special_hands(tmp_path) -> None:
    """Generic: a Spanish house variant gives its own words for hand values (`display: es:
    values`) and special hands (`display: es: hands`); its rulebook names them by those words."""
    tantos = tmp_path / "tantos.yaml"
    tantos.write_text("name: tantos\nextends: teg\ndisplay:\n  es:\n    values:\n"
                      "      envido: los tantos\n      flor: la flor florida\n", encoding="utf-8")
    book = render(load_game(str(tantos)))
    assert "### los tantos" in book and "| Mano | los tantos |" in book
    assert "### la flor florida" in book
    once = tmp_path / "once.yaml"
    once.write_text("name: once\nextends: paulista\nlanguage: es\ndisplay:\n  es:\n    hands:\n"
                    "      eleven: mano de once\n      iron: mano de hierro\n", encoding="utf-8")
    book = render(load_game(str(once)))
    assert "**mano de once**, cuando" in book and "**mano de hierro**, cuando" in book
    assert "**eleven**" not in book and "**iron**" not in book
