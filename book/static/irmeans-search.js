// The search page of the book's site, as a reader expects it:
// - each result's summary is the page's own text, around the words searched for: the chapter's
//   article only (not its download buttons or its list of contents), without code, displayed
//   equations or figures, inline maths written without its LaTeX, its white space collapsed;
// - a word the book writes as a symbol ("epsilon" for ε) is looked for, and highlighted, as the symbol,
//   and a search for the symbol is a search for the word: "ε" and "epsilon" find the same pages, in the
//   same order (the pages that write ε have "epsilon" as a keyword: irmeans_site.SEARCH_SYNONYMS);
// - the results are ordered by irmeans-search-scorer.js (Sphinx's html_search_scorer), which reads the
//   query's words kept here (Search.irmeansQueryWords): the chapter that defines a term comes first;
// - a search that finds nothing says so in the book's words (Sphinx's message speaks of "categories",
//   which this site has none of);
// - a command-line option ("-c", "trec_eval -c", "--eps") is searched for as the option: the site's
//   build lists the options each page names as keywords (irmeans_site.page_options), and a page is
//   found only if it names every option of the query; its summary shows the option, highlighted;
// - a page is listed once, however many of its titles and words match.
(function () {
  "use strict";
  // LaTeX commands the book uses, as the characters a reader sees.
  var SYMBOLS = {
    varepsilon: "ε", epsilon: "ε", tau: "τ", sigma: "σ", mu: "μ", alpha: "α", beta: "β", lambda: "λ",
    le: "≤", leq: "≤", ge: "≥", geq: "≥", ne: "≠", approx: "≈", cdot: "·", times: "×", to: "→",
    dots: "…", ldots: "…", cdots: "…", sum: "Σ", prod: "Π", infty: "∞", pm: "±", in: "∈",
    Phi: "Φ", gg: "≫", mp: "∓",
  };
  // Words a reader types for the symbols the book writes (irmeans_site.SEARCH_SYNONYMS).
  var SYNONYMS = { epsilon: "ε", tau: "τ" };
  // A command-line option in a query, as irmeans_site.OPTION finds them in the pages.
  var OPTION = /(^|[^\w-])(--?[A-Za-z][A-Za-z0-9_-]*)/g;
  var SUMMARY_LENGTH = 240;
  // Sphinx's message when nothing is found, and the book's.
  var NOTHING_FOUND =
    "Your search did not match any documents. Please make sure that all words are spelled correctly and that you've selected enough categories.";
  var NOTHING_FOUND_HERE =
    "Your search did not match any page of the book. Check the spelling of each word, or search for fewer words: a page is found only if it has every one of them.";

  function texToText(tex) {
    return tex
      .replace(/^\\\(|\\\)$/g, "")
      .replace(/\\(?:[Bb]igg?[lrm]?|textstyle|displaystyle|scriptstyle)(?![A-Za-z])/g, "")
      .replace(/\\[dt]?frac\s*\{([^{}]*)\}\{([^{}]*)\}/g, "($1)/($2)")
      .replace(/\\[dt]?frac\s*([A-Za-z0-9])\s*([A-Za-z0-9])/g, "$1/$2")
      .replace(/\\(?:text|mathrm|mathit|operatorname|mathbf)\{([^{}]*)\}/g, "$1")
      // A mean written with a bar, and a root, as words a summary can show: exp(mean(log(x+ε))), √(1.06/(n−3)).
      .replace(/\\(?:overline|bar)\{((?:[^{}]|\{[^{}]*\})*)\}/g, "mean($1)")
      .replace(/\\sqrt\{((?:[^{}]|\{[^{}]*\})*)\}/g, "√($1)")
      .replace(/\\(left|right|,|;|!|quad|qquad)/g, " ")
      .replace(/\\([A-Za-z]+)/g, function (all, name) {
        return SYMBOLS[name] !== undefined ? SYMBOLS[name] : name;
      })
      .replace(/[{}]/g, "")
      .replace(/\s+/g, " ")
      .trim();
  }

  // The page's article as the only [role=main] content: no header buttons, no code, no figures.
  function plain(htmlString) {
    var doc = new DOMParser().parseFromString(htmlString, "text/html");
    var drop = ".cell_input, .cell_output, div.highlight, pre, div.math, .math-wrapper, .irmeans-figure, script, style, .headerlink, .selfcheck-form";
    var article = doc.querySelector("article.bd-article") || doc.querySelector('[role="main"]') || doc.body;
    article.querySelectorAll(drop).forEach(function (el) {
      el.remove();
    });
    article.querySelectorAll("span.math").forEach(function (el) {
      el.replaceWith(doc.createTextNode(texToText(el.textContent)));
    });
    // Block elements end with a space, so that "Learning goals" and the text after it stay two words.
    article.querySelectorAll("p, li, h1, h2, h3, h4, h5, h6, td, th, dt, dd, div").forEach(function (el) {
      el.appendChild(doc.createTextNode(" "));
    });
    return '<html><body><div role="main">' + article.innerHTML + "</div></body></html>";
  }

  function options(query) {
    var found = [];
    var match;
    OPTION.lastIndex = 0;
    while ((match = OPTION.exec(query)) !== null) if (found.indexOf(match[2]) < 0) found.push(match[2]);
    return found;
  }

  function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }

  // Where the summary starts: at the first option of the query the text names, else at a searched
  // word's symbol, else at the first searched word; -1 if none is in the text.
  function firstHit(text, words) {
    var lower = text.toLowerCase();
    var opts = (Search.irmeansOptions || []).map(function (o) {
      var m = new RegExp("(^|[^\\w-])" + escapeRegExp(o) + "(?![\\w-])").exec(text);
      return m ? m.index + m[1].length : -1;
    });
    var symbols = words
      .filter(function (w) { return SYNONYMS[w] !== undefined; })
      .map(function (w) { return text.indexOf(SYNONYMS[w]); });
    var plainWords = words.map(function (w) { return lower.indexOf(w.toLowerCase()); });
    var groups = [opts, symbols, plainWords];
    for (var g = 0; g < groups.length; g++) {
      var hits = groups[g].filter(function (i) { return i > -1; });
      if (hits.length) return Math.min.apply(null, hits);
    }
    return -1;
  }

  function summary(htmlText, keywords, anchor) {
    var text = Search.htmlToText(htmlText, anchor);
    if (!text) return null;
    var words = Array.from(keywords).concat(Array.from(Search.irmeansHighlight || []));
    var hit = firstHit(text, words);
    var start = hit > 60 ? text.lastIndexOf(" ", hit - 60) + 1 : 0;
    var end = Math.min(text.length, start + SUMMARY_LENGTH);
    if (end < text.length && text.lastIndexOf(" ", end) > start + SUMMARY_LENGTH / 2) end = text.lastIndexOf(" ", end);
    var node = document.createElement("p");
    node.classList.add("context");
    node.textContent = (start > 0 ? "… " : "") + text.slice(start, end).trim() + (end < text.length ? " …" : "");
    return node;
  }

  window.irmeansSearchText = {
    texToText: texToText, plain: plain, options: options, firstHit: firstHit, NOTHING_FOUND_HERE: NOTHING_FOUND_HERE,
  };

  // The symbol a word of the query stands for, if the book writes it so ("ε" for "epsilon"), else null.
  function symbolOf(word) {
    return SYNONYMS[word] !== undefined ? SYNONYMS[word] : null;
  }
  // The word a symbol of the query stands for ("epsilon" for "ε"), else the word itself.
  function wordOf(term) {
    for (var word in SYNONYMS) if (SYNONYMS[word] === term) return word;
    return term;
  }

  function patch() {
    if (typeof Search === "undefined" || Search.irmeansPatched) return;
    if (typeof Documentation !== "undefined") Documentation.TRANSLATIONS[NOTHING_FOUND] = NOTHING_FOUND_HERE;
    var original = Search.htmlToText;
    Search.htmlToText = function (htmlString, anchor) {
      return original(plain(htmlString), anchor).replace(/\s+/g, " ").trim();
    };
    Search.makeSearchSummary = summary;

    var parse = Search._parseQuery;
    Search._parseQuery = function (query) {
      var opts = options(query);
      var rest = query.replace(OPTION, "$1 ");
      var parsed = parse(rest.trim() ? rest : query);
      var searchTerms = parsed[1];
      var highlightTerms = parsed[3];
      if (!rest.trim()) {
        searchTerms.clear();
        highlightTerms.clear();
      }
      var stemmer = new Stemmer();
      opts.forEach(function (o) {
        searchTerms.add(stemmer.stemWord(o.toLowerCase()));
        highlightTerms.add(o);
      });
      // A symbol is searched for as its word (the pages that write it have the word as a keyword).
      Array.from(searchTerms).forEach(function (t) {
        var word = wordOf(t);
        if (word !== t) {
          searchTerms.delete(t);
          searchTerms.add(stemmer.stemWord(word));
          highlightTerms.add(word);
        }
      });
      Array.from(highlightTerms).forEach(function (w) {
        if (symbolOf(w) !== null) highlightTerms.add(symbolOf(w));
      });
      // The query's words, for the scorer: symbols as their words, no stop words.
      Search.irmeansQueryWords = rest
        .toLowerCase()
        .split(/\s+/)
        .filter(function (w) { return w && stopwords.indexOf(w) < 0; })
        .map(wordOf);
      Search.irmeansOptions = opts;
      Search.irmeansOptionTerms = opts.map(function (o) { return stemmer.stemWord(o.toLowerCase()); });
      Search.irmeansHighlight = highlightTerms;
      parsed[0] = query;
      return parsed;
    };

    // A page is listed once, by its best result (Sphinx's results come best last): "Kendall" listed chapter 7
    // twice, once for its text and once for the title of its box on Kendall's tau.
    function oncePerPage(results) {
      var seen = {};
      var kept = [];
      for (var i = results.length - 1; i >= 0; i--) {
        if (seen[results[i][0]]) continue;
        seen[results[i][0]] = true;
        kept.unshift(results[i]);
      }
      return kept;
    }

    // A page is found for a query with options only if it names every one of them (as a keyword).
    var perform = Search._performSearch;
    Search._performSearch = function (query, searchTerms, excludedTerms, highlightTerms, objectTerms) {
      var results = oncePerPage(perform(query, searchTerms, excludedTerms, highlightTerms, objectTerms));
      var wanted = Search.irmeansOptionTerms || [];
      if (!wanted.length) return results;
      var index = Search._index;
      return results.filter(function (result) {
        var file = index.docnames.indexOf(result[0]);
        return wanted.every(function (term) {
          var files = index.terms[term];
          return files !== undefined && (files === file || (files.length !== undefined && files.indexOf(file) > -1));
        });
      });
    };
    Search.irmeansPatched = true;
  }

  patch();
  document.addEventListener("DOMContentLoaded", patch);
})();
