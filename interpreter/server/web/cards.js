// Card artwork: how each suit of the two decks the boards draw (Spanish and French) looks.
// It is artwork, not rules: a suit is drawn from its letter in the spec's deck, and the
// board knows nothing else of a variant (tests/server/test_generic.py scans board.js).

const SUITS = {                              // how a suit letter is drawn, per deck
  spanish: { o: ["oros", "#b7791f"], c: ["copas", "#b91c1c"], e: ["espadas", "#1d4ed8"], b: ["bastos", "#166534"] },
  french: { d: ["diamonds", "#c0262d"], h: ["hearts", "#c0262d"], s: ["spades", "#111"], c: ["clubs", "#111"] },
};

// The suit's mark, drawn in a 20×20 box.
function suitMark(suit, kind) {
  const [, color] = SUITS[kind][suit] || ["", "#333"];
  const shapes = {
    spanish: {
      o: `<circle cx="10" cy="10" r="8" fill="${color}"/><circle cx="10" cy="10" r="5" fill="none" stroke="#fde68a" stroke-width="1.5"/>`,
      c: `<path d="M4 3h12c0 5-2 8-5 9v3h3v2H6v-2h3v-3C6 11 4 8 4 3z" fill="${color}"/>`,
      e: `<path d="M10 1l2 3v9h3v2h-4v4H9v-4H5v-2h3V4z" fill="${color}"/>`,
      b: `<path d="M8 2c3-1 5 1 5 3l-1 12c0 2-3 2-3 0L7 6C6 4 6 3 8 2z" fill="${color}"/>`,
    },
    french: {
      d: `<path d="M10 1l7 9-7 9-7-9z" fill="${color}"/>`,
      h: `<path d="M10 18S2 12 2 7a4 4 0 0 1 8-1 4 4 0 0 1 8 1c0 5-8 11-8 11z" fill="${color}"/>`,
      s: `<path d="M10 1S2 8 2 12a4 4 0 0 0 7 2l-1 5h4l-1-5a4 4 0 0 0 7-2c0-4-8-11-8-11z" fill="${color}"/>`,
      c: `<circle cx="10" cy="6" r="4" fill="${color}"/><circle cx="5.5" cy="12" r="4" fill="${color}"/><circle cx="14.5" cy="12" r="4" fill="${color}"/><path d="M9 12h2l1 7H8z" fill="${color}"/>`,
    },
  };
  return (shapes[kind] || {})[suit] || `<circle cx="10" cy="10" r="6" fill="${color}"/>`;
}

// A card face's SVG: the printed rank in two corners (filled in by the caller), the mark in the middle.
function faceSvg(ns, color, mark) {
  return `<svg xmlns="${ns}" viewBox="0 0 60 90" aria-hidden="true" focusable="false">
    <rect x="1" y="1" width="58" height="88" rx="6" fill="#fbf8ef" stroke="#8a7f66"/>
    <text x="6" y="18" font-size="15" font-weight="700" fill="${color}" font-family="system-ui, sans-serif"></text>
    <text x="54" y="84" font-size="15" font-weight="700" fill="${color}" text-anchor="end" font-family="system-ui, sans-serif"></text>
    <g transform="translate(15 30) scale(1.5)">${mark}</g></svg>`;
}

window.cardArt = { SUITS, faceSvg, suitMark };
