// Search results of the book's site as text: each result's summary leaves out code,
// displayed equations and figures, and writes inline maths without its LaTeX.
(function () {
  "use strict";
  // LaTeX commands the book uses, as the characters a reader sees.
  var SYMBOLS = {
    varepsilon: "ε", epsilon: "ε", tau: "τ", sigma: "σ", mu: "μ", alpha: "α", beta: "β", lambda: "λ",
    le: "≤", leq: "≤", ge: "≥", geq: "≥", ne: "≠", approx: "≈", cdot: "·", times: "×", to: "→",
    dots: "…", ldots: "…", cdots: "…", sum: "Σ", prod: "Π", infty: "∞", pm: "±", in: "∈",
  };

  function texToText(tex) {
    return tex
      .replace(/^\\\(|\\\)$/g, "")
      .replace(/\\frac\{([^{}]*)\}\{([^{}]*)\}/g, "($1)/($2)")
      .replace(/\\(?:text|mathrm|mathit|operatorname|mathbf)\{([^{}]*)\}/g, "$1")
      .replace(/\\(left|right|,|;|!|quad|qquad)/g, " ")
      .replace(/\\([A-Za-z]+)/g, function (all, name) {
        return SYMBOLS[name] !== undefined ? SYMBOLS[name] : name;
      })
      .replace(/[{}]/g, "")
      .replace(/\s+/g, " ")
      .trim();
  }

  function plain(htmlString) {
    var doc = new DOMParser().parseFromString(htmlString, "text/html");
    var drop = ".cell_input, .cell_output, div.highlight, pre, div.math, .math-wrapper, .irmeans-figure, script, style";
    doc.querySelectorAll(drop).forEach(function (el) {
      el.remove();
    });
    doc.querySelectorAll("span.math").forEach(function (el) {
      el.replaceWith(doc.createTextNode(texToText(el.textContent)));
    });
    return doc.documentElement.outerHTML;
  }

  window.irmeansSearchText = { texToText: texToText, plain: plain };

  function patch() {
    if (typeof Search === "undefined" || Search.irmeansPatched) return;
    var original = Search.htmlToText;
    Search.htmlToText = function (htmlString, anchor) {
      return original(plain(htmlString), anchor);
    };
    Search.irmeansPatched = true;
  }

  patch();
  document.addEventListener("DOMContentLoaded", patch);
})();
