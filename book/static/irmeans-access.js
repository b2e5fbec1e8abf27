// On every page of the book's site: what a reader with a keyboard or a screen reader needs of the page's own
// controls (the figures' are in irmeans-figures.js).
//
// - Each toggle is named by what it shows: a hidden code cell's "Show the code of Fig. 4.1" (it said "Show
//   code cell source", and to a screen reader "Toggle hidden content"), a solution's button "Show the solution
//   to Exercise 4.2" ("Toggle hidden content" too), and "Hide ..." once open.
// - The colour-mode button's name says the mode its icon shows ("Color mode: Dark"); the search button's name
//   is what it shows ("Search Ctrl+K"), not another.
// - Closing a dialog (the menu and the contents on a phone, search) with Escape gives the focus back to what
//   had it before, the button that opened it (it went to the top of the page).
// - Escape closes a tooltip: a figure's (Vega's) and a button's.
(function () {
  "use strict";

  var FIGURE_NUMBER = /^(Fig\.\s*[\d.]+)/;

  function clean(text) {
    return (text || "").replace(/\s+/g, " ").trim();
  }

  // What a hidden code cell's code makes: its figure's number, the "your scores" boxes, a table, an output.
  function cellShows(cell) {
    var caption = cell.querySelector(".cell_output .caption-number");
    var number = caption && FIGURE_NUMBER.exec(clean(caption.textContent));
    if (number) return number[1].replace(/\.$/, "");
    var code = cell.querySelector(".cell_input");
    if (code && /\byour_scores\(/.test(code.textContent)) return "the \u201cyour scores\u201d boxes";
    if (cell.querySelector(".cell_output table")) return "the table below";
    return "the output below";
  }

  // A hidden code cell's toggle: its words say what it shows, and they are its name.
  function nameCodeToggles() {
    document.querySelectorAll("details.hide > summary").forEach(function (summary) {
      if (summary.dataset.named) return;
      var cell = summary.closest(".cell");
      if (!cell) return;
      var what = cellShows(cell);
      var collapsed = summary.querySelector(".collapsed");
      var expanded = summary.querySelector(".expanded");
      if (collapsed) collapsed.textContent = "Show the code of " + what;
      if (expanded) expanded.textContent = "Hide the code of " + what;
      summary.removeAttribute("aria-label");
      summary.dataset.named = "true";
    });
  }

  // A folded admonition's button (sphinx-togglebutton's), named after its title and whether it is open.
  function nameFoldButton(button) {
    var item = document.getElementById(button.dataset.target || "");
    var title = item && item.querySelector(".admonition-title");
    if (!title) return;
    var copy = title.cloneNode(true);
    copy.querySelectorAll("button, svg").forEach(function (e) { e.remove(); });
    var words = clean(copy.textContent);
    var what = /^solution to\b/i.test(words) ? "the s" + words.slice(1) : "\u201c" + words + "\u201d";
    var open = item.classList.contains("toggle-hidden") ? "Show " : "Hide ";
    button.setAttribute("aria-label", open + what);
  }

  function nameFoldButtons() {
    document.querySelectorAll("button.toggle-button[data-target]").forEach(function (button) {
      nameFoldButton(button);
      if (button.dataset.named) return;
      button.dataset.named = "true";
      new MutationObserver(function () { nameFoldButton(button); }).observe(button, {
        attributes: true,
        attributeFilter: ["aria-expanded", "class"],
      });
    });
  }

  // The colour-mode button: its name says the mode its icon shows (the icon's own title).
  var MODES = { light: "Light", dark: "Dark", auto: "System Settings" };
  function nameThemeSwitch() {
    var mode = document.documentElement.dataset.mode || "auto";
    document.querySelectorAll(".theme-switch-button").forEach(function (button) {
      button.setAttribute("aria-label", "Color mode: " + (MODES[mode] || mode));
    });
  }

  // A button whose words show is named by them (the search field's "Search Ctrl+K" was named "Search").
  function nameByWords() {
    document.querySelectorAll(".search-button-field[aria-label]").forEach(function (button) {
      button.removeAttribute("aria-label");
    });
  }

  // Focus goes back to where it was when a dialog opened, once the dialog closes.
  var lastFocus = null;
  document.addEventListener("focusin", function (event) {
    if (!event.target.closest("dialog")) lastFocus = event.target;
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button, a");
    if (button && !button.closest("dialog")) lastFocus = button;
  }, true);

  function watchDialogs() {
    document.querySelectorAll("dialog").forEach(function (dialog) {
      if (dialog.dataset.focusReturns) return;
      dialog.dataset.focusReturns = "true";
      var opener = null;
      new MutationObserver(function () {
        if (dialog.open) opener = lastFocus;
      }).observe(dialog, { attributes: true, attributeFilter: ["open"] });
      dialog.addEventListener("close", function () {
        var back = opener;
        opener = null;
        // After the theme's own handler (it moves the sidebar back out of the dialog).
        setTimeout(function () {
          if (back && back.isConnected && back.getClientRects().length && !document.querySelector("dialog[open]")) {
            back.focus();
          }
        }, 0);
      });
    });
  }

  // Escape closes whatever tooltip is shown: Vega's (a figure's mark under the pointer) and Bootstrap's.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var vega = document.getElementById("vg-tooltip-element");
    if (vega) vega.classList.remove("visible");
    document.querySelectorAll("[aria-describedby]").forEach(function (el) {
      var tip = window.bootstrap && window.bootstrap.Tooltip && window.bootstrap.Tooltip.getInstance(el);
      if (tip) tip.hide();
    });
  });

  function start() {
    nameCodeToggles();
    nameFoldButtons();
    nameThemeSwitch();
    nameByWords();
    watchDialogs();
    new MutationObserver(nameThemeSwitch).observe(document.documentElement, {
      attributes: true,
      attributeFilter: ["data-mode"],
    });
  }

  window.irmeansAccess = { start: start };

  // After sphinx-togglebutton has added its buttons (on DOMContentLoaded, from a script loaded before this one).
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
