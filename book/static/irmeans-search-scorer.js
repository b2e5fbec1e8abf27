// How the site's search orders its results (Sphinx's html_search_scorer, set by irmeans_site.py): the
// chapter that defines what was searched for comes first.
//
// Sphinx scores a page by whether the words searched for are in its text (5) or in one of its titles
// (15), and orders pages of equal score by name: "geometric mean" gave chapter 4, where the averages
// are defined, eighth of 12, and "epsilon" gave chapter 6, "Zeros and ε", sixth of 11. Here a page
// (every word of the query is in its text, or it is not a result) scores
//   5, plus 40 if its title names every word of the query, plus 20 if one of its section headings does,
// and, among pages of equal score, the one earlier in the book comes first: the chapter that
// introduces a term in a heading comes before the chapters that come back to it.
// A heading names a word as the book writes it: "GM" is the geometric mean, "HM" the harmonic mean,
// "AM" the arithmetic mean, and ε is epsilon ("Zeros and ε" names "epsilon"; a search for "ε" is a
// search for "epsilon": irmeans-search.js). Results that point into a page (a section whose whole title
// was searched for) keep Sphinx's score.
var Scorer = {
  // Sphinx's own weights (searchtools.js), kept for what this file does not score itself.
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: { 0: 15, 1: 5, 2: -5 },
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,

  // The book's: a page's title naming every word searched for, and one of its headings doing so.
  pageTitle: 40,
  heading: 20,
  // What a heading's abbreviations and symbols stand for, as words a reader searches for.
  expansions: {
    gm: "geometric mean",
    hm: "harmonic mean",
    am: "arithmetic mean",
    "εgm": "epsilon geometric mean",
    "εhm": "epsilon harmonic mean",
    "ε": "epsilon",
    "τ": "tau",
  },

  // The stems of a text's words, its abbreviations and symbols spelled out.
  stems: function (text) {
    var stemmer = new Stemmer();
    var out = [];
    (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) || []).forEach(function (word) {
      var spelled = Scorer.expansions[word] || word;
      spelled.split(" ").forEach(function (w) {
        out.push(stemmer.stemWord(w));
      });
    });
    return out;
  },

  // Each page's title and section headings, by its number in the index (read once).
  headings: function () {
    if (Scorer._headings) return Scorer._headings;
    var found = {};
    var all = Search._index.alltitles || {};
    Object.keys(all).forEach(function (title) {
      all[title].forEach(function (entry) {
        var file = entry[0];
        (found[file] = found[file] || []).push(title);
      });
    });
    Scorer._headings = found;
    return found;
  },

  // The stems of the query's words (irmeans-search.js keeps them; else the page's ?q=).
  queryStems: function () {
    var words = Search.irmeansQueryWords;
    if (!words) {
      var q = new URLSearchParams(window.location.search).get("q") || "";
      words = q.split(/\s+/).filter(function (w) { return w && stopwords.indexOf(w.toLowerCase()) < 0; });
    }
    return Scorer.stems(words.join(" "));
  },

  score: function (result) {
    var docname = result[0], anchor = result[2], score = result[4];
    if (anchor) return score;
    var index = Search._index;
    var file = index.docnames.indexOf(docname);
    if (file < 0) return score;
    var wanted = Scorer.queryStems();
    if (!wanted.length) return score;
    var names = function (text) {
      var have = Scorer.stems(text);
      return wanted.every(function (w) { return have.indexOf(w) > -1; });
    };
    var title = index.titles[file] || "";
    var own = Scorer.term;
    if (names(title)) own += Scorer.pageTitle;
    if ((Scorer.headings()[file] || []).some(function (h) { return h !== title && names(h); })) own += Scorer.heading;
    // Earlier in the book first, among equals (less than a point between the first page and the last).
    return own + (index.docnames.length - file) / (index.docnames.length + 1);
  },
};
