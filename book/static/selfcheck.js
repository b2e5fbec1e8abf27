/* Self-check exercises: tell the reader whether an answer is right, and show the hint when it is not.
 *
 * Each form (made by the book's irmeans_selfcheck extension) carries its answer, computed by the
 * library when the site was built: data-kind "number" (data-answer, data-tolerance) or "choice"
 * (data-answer, the value of the right radio button), and data-shown, the answer as printed.
 */
(function () {
  "use strict";

  var NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i;

  /* A number as a reader types it: "0.25", ".25", "0,25", "1/4", "−0.5"; NaN if it is none. A comma between
     digits is a decimal comma when the answer holds no '.' and no ';', the rule of the "your scores" boxes
     (irmeans_book.yourscores.entries): "0,275" is 0.275. */
  function parseNumber(text) {
    var t = String(text);
    if (!/[.;]/.test(t)) t = t.replace(/(\d),(?=\d)/g, "$1.");
    t = t.replace(/\s+/g, "").replace(/[\u2212\u2013]/g, "-");
    var parts = t.split("/");
    if (parts.length === 2 && NUMBER.test(parts[0]) && NUMBER.test(parts[1]) && Number(parts[1]) !== 0) {
      return Number(parts[0]) / Number(parts[1]);
    }
    return parts.length === 1 && NUMBER.test(t) ? Number(t) : NaN;
  }

  function verdict(form) {
    var answer = form.dataset.answer;
    if (form.dataset.kind === "number") {
      var given = parseNumber(form.querySelector("input").value);
      if (isNaN(given)) return "invalid";
      var tolerance = Number(form.dataset.tolerance);
      return Math.abs(given - Number(answer)) <= tolerance + 1e-12 ? "right" : "wrong";
    }
    var chosen = form.querySelector("input[type=radio]:checked");
    if (!chosen) return "invalid";
    return chosen.value === answer ? "right" : "wrong";
  }

  var MESSAGES = {
    invalid: {
      number: "Type a number, such as 0.25 (a fraction such as 1/4 works too).",
      choice: "Choose one of the options first.",
    },
    wrong: "Not quite: try again.",
  };

  function check(form) {
    var result = verdict(form);
    var feedback = form.querySelector(".selfcheck-feedback");
    var hint = document.getElementById(form.dataset.label + "-hint");
    var message;
    if (result === "right") {
      message = "Right: " + form.dataset.shown + ".";
    } else if (result === "wrong") {
      message = MESSAGES.wrong + (hint ? " The hint below may help." : "");
    } else {
      message = MESSAGES.invalid[form.dataset.kind];
    }
    form.classList.remove("selfcheck-right", "selfcheck-wrong", "selfcheck-invalid");
    form.classList.add("selfcheck-" + result);
    feedback.textContent = message;
    if (hint) hint.hidden = result !== "wrong" && hint.hidden;
    var input = form.querySelector("input.selfcheck-input");
    if (input) input.setAttribute("aria-invalid", result === "right" ? "false" : "true");
  }

  function setUp() {
    document.querySelectorAll("form.selfcheck-form").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        check(form);
      });
    });
  }

  window.irmeansSelfcheck = { parseNumber: parseNumber };

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
