// On every page of the book's site: wide formulas, tables and code, as a reader meets them.
//
// - A box that scrolls sideways (a code block, a table of numbers) shows that it does: it fades out
//   at the side where more is hidden (classes irmeans-more-left and irmeans-more-right, see
//   irmeans.css), and it takes the keyboard's focus, so the arrow keys scroll it.
// - A table of text (a table of the chapters' prose, or a table of a code cell with sentences in its
//   cells) that is wider than its column, or on a phone whose rows would be taller than three lines of
//   their text, is stacked on screen: each row a block, each cell under its column's name (class irmeans-stacked,
//   data-label). A table of numbers scrolls instead, and shows it; its column headers do not wrap.
// - A command-line option in inline code (-c, --difficulty) is kept whole: never broken after its hyphen.
// - A long word of inline code (a file name, a call) may break after a dot, a slash, an underscore,
//   a parenthesis or a comma (a <wbr> there), so it stays inside its box on a phone.
// - A code block too long to be moved whole to the next printed page is marked irmeans-long, which
//   lets print break it between lines (irmeans-print.css); a shorter one is kept whole, frame and all.
(function () {
  "use strict";

  // The elements that may scroll sideways: code, displayed maths (its container), tables, outputs.
  var SCROLLERS = "pre, div.math mjx-container, .pst-scrollable-table-container, .cell_output .output, .cell_output .output table";
  // Tables of text: the chapters' Markdown tables (a table of numbers from a code cell is a .dataframe),
  // and a code cell's table with a sentence in one of its cells (chapter 5's descriptions of Robertson's
  // figures, chapter 7's topics of each pair of runs).
  var TEXT_TABLES = ".pst-scrollable-table-container > table:not(.dataframe)";
  var OUTPUT_TABLES = ".cell_output table.dataframe";
  var SENTENCE = /\S+(\s+\S+){5,}/;
  // The most lines of its text a row of a table of text may take on a phone before the table is stacked
  // (the theme's narrow layout: on a wider screen a long row is still a row).
  var MOST_LINES = 3;
  var NARROW = window.matchMedia("(max-width: 767.98px)");
  // Code longer than this many lines may be broken across printed pages.
  var LONG_CODE_LINES = 30;
  var watched = new WeakSet();

  function article() {
    return document.querySelector(".bd-article") || document.querySelector("main") || document.body;
  }

  function scrollsSideways(el) {
    var x = getComputedStyle(el).overflowX;
    return (x === "auto" || x === "scroll") && el.scrollWidth > el.clientWidth + 1;
  }

  // The fade on each side where the box hides content.
  function cue(el) {
    var scrolls = scrollsSideways(el);
    el.classList.toggle("irmeans-scrolls", scrolls);
    el.classList.toggle("irmeans-more-left", scrolls && el.scrollLeft > 1);
    el.classList.toggle("irmeans-more-right", scrolls && el.scrollLeft + el.clientWidth < el.scrollWidth - 1);
    if (scrolls && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", "0");
  }

  function cues(root) {
    root.querySelectorAll(SCROLLERS).forEach(function (el) {
      cue(el);
      if (!watched.has(el)) {
        watched.add(el);
        el.addEventListener("scroll", function () { cue(el); }, { passive: true });
      }
    });
  }

  // Each cell of a text table learns its column's name (its header's last row); the table keeps its roles
  // when stacked.
  function label(table) {
    if (table.dataset.labelled) return;
    var head = table.tHead && table.tHead.rows.length ? table.tHead.rows[table.tHead.rows.length - 1] : null;
    var names = head ? Array.from(head.cells).map(function (th) {
      return th.textContent.replace(/\s+/g, " ").trim();
    }) : [];
    table.setAttribute("role", "table");
    table.querySelectorAll("thead, tbody").forEach(function (g) { g.setAttribute("role", "rowgroup"); });
    table.querySelectorAll("tr").forEach(function (tr) {
      tr.setAttribute("role", "row");
      var inHead = tr.parentElement && tr.parentElement.tagName === "THEAD";
      Array.from(tr.children).forEach(function (cell, i) {
        if (cell.tagName === "TH") cell.setAttribute("role", inHead ? "columnheader" : "rowheader");
        else {
          cell.setAttribute("role", "cell");
          if (names[i]) cell.dataset.label = names[i];
        }
      });
    });
    table.dataset.labelled = "true";
  }

  // The most lines of its own text any cell of the table's rows takes (a cell spanning rows aside).
  function tallestRow(table) {
    var most = 0;
    Array.from(table.rows).forEach(function (row) {
      Array.from(row.cells).forEach(function (cell) {
        if (cell.rowSpan > 1) return;
        var style = getComputedStyle(cell);
        var line = style.lineHeight === "normal" ? 1.2 * parseFloat(style.fontSize) : parseFloat(style.lineHeight);
        var inner = cell.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
        most = Math.max(most, Math.round(inner / line));
      });
    });
    return most;
  }

  function textTables(root) {
    var outputs = Array.from(root.querySelectorAll(OUTPUT_TABLES)).filter(function (table) {
      return Array.from(table.querySelectorAll("tbody td, tbody th")).some(function (cell) {
        return SENTENCE.test(cell.textContent.trim());
      });
    });
    return Array.from(root.querySelectorAll(TEXT_TABLES)).concat(outputs);
  }

  // Stack the text tables that do not fit their column, or whose rows would be too tall to read as rows
  // (on screen; paper has its own width).
  function stack(root) {
    textTables(root).forEach(function (table) {
      label(table);
      table.classList.remove("irmeans-stacked");
      var box = table.classList.contains("dataframe") ? table : table.parentElement;
      var wide = box.clientWidth > 0 && table.scrollWidth > box.clientWidth + 1;
      var tall = NARROW.matches && box.clientWidth > 0 && tallestRow(table) > MOST_LINES;
      if (wide || tall) table.classList.add("irmeans-stacked");
    });
  }

  // Long code (and the frames around it) may break across printed pages; shorter code stays whole.
  function markLongCode(root) {
    root.querySelectorAll("pre").forEach(function (pre) {
      if (pre.textContent.split("\n").length <= LONG_CODE_LINES) return;
      for (var el = pre; el && el !== root; el = el.parentElement) {
        el.classList.add("irmeans-long");
        if (el.classList.contains("cell_input") || el.classList.contains("cell_output")) break;
      }
    });
  }

  // Places a long word of inline code may break: after . / _ ( , =
  var BREAK_AFTER = /([./_(,=])(?=[^\s])/g;
  var LONG_WORD = 16;
  // A word of inline code that is a command-line option, or starts with one (--eps=0.01).
  var OPTION = /^--?[A-Za-z]/;

  function breakableCode(root) {
    root.querySelectorAll("code.literal").forEach(function (code) {
      if (code.dataset.breakable) return;
      code.dataset.breakable = "true";
      // A command-line option (-c, --eps) is never broken after its hyphen.
      code.querySelectorAll("span.pre").forEach(function (word) {
        if (OPTION.test(word.textContent)) word.classList.add("irmeans-option");
      });
      var walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      var texts = [];
      while (walker.nextNode()) texts.push(walker.currentNode);
      texts.forEach(function (node) {
        if (node.nodeValue.length < LONG_WORD) return;
        var parts = node.nodeValue.split(BREAK_AFTER);
        if (parts.length < 2) return;
        var frag = document.createDocumentFragment();
        // split() with a capturing group: text, separator, text, separator, ...
        for (var i = 0; i < parts.length; i++) {
          if (!parts[i]) continue;
          frag.appendChild(document.createTextNode(parts[i]));
          if (i % 2 === 1) frag.appendChild(document.createElement("wbr"));
        }
        node.parentNode.replaceChild(frag, node);
      });
    });
  }

  // A cell of an output's table that is prose, not a number: it may wrap (on paper a table's numbers
  // do not, so that its columns never interleave; a long text kept on one line would run past the column).
  var NUMBER = /^[-+\u2212]?[\d.,]+(e[-+]?\d+)?%?$|^(nan|True|False|[-\u2013])?$/i;
  function markTextCells(root) {
    root.querySelectorAll(".cell_output table td").forEach(function (td) {
      if (!NUMBER.test(td.textContent.trim())) td.classList.add("irmeans-text-cell");
    });
  }

  function update() {
    var root = article();
    stack(root);
    cues(root);
  }

  var timer = null;
  function later() {
    clearTimeout(timer);
    timer = setTimeout(update, 100);
  }

  function start() {
    markLongCode(article());
    breakableCode(article());
    markTextCells(article());
    update();
    // Maths is typeset after the page loads; a dropdown or a figure changes the page's height.
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) MathJax.startup.promise.then(update);
    window.addEventListener("load", update);
    window.addEventListener("resize", later);
    if (window.ResizeObserver) new ResizeObserver(later).observe(article());
  }

  window.irmeansPage = { update: update };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
