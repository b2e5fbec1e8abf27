// Read-only checks of what a reader sees of a page: what is cut, what scrolls, what is empty.
// Added to a page by the browser tests as window.irmeansSurface (see test_site_surfaces.py).
window.irmeansSurface = (function () {
  const name = (el) =>
    el.tagName.toLowerCase() +
    (el.id ? "#" + el.id : "") +
    (typeof el.className === "string" && el.className.trim()
      ? "." + el.className.trim().split(/\s+/).slice(0, 3).join(".")
      : "");
  const text = (el) => (el.textContent || "").replace(/\s+/g, " ").trim().slice(0, 70);
  const column = () => document.querySelector(".bd-article") || document.querySelector("main");
  const clips = (v) => v !== "visible";
  const scrolls = (v) => v === "auto" || v === "scroll";

  // Visually hidden on purpose (a screen reader's copy): a box of at most 1 px, or clipped to nothing.
  function srOnly(el) {
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      const r = a.getBoundingClientRect();
      const s = getComputedStyle(a);
      if ((r.width <= 1 || r.height <= 1) && clips(s.overflowX)) return true;
      if (s.clipPath && s.clipPath.startsWith("inset(50%")) return true;
      if (s.clip && s.clip.startsWith("rect(1px")) return true;
    }
    return false;
  }

  function visible(el) {
    if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }

  // Open what a reader can open: hidden code, dropdown solutions, hints.
  async function openAll() {
    document.querySelectorAll("details").forEach((d) => (d.open = true));
    document.querySelectorAll(".toggle-hidden, .toggle.toggle-hidden").forEach((el) => {
      const button = el.querySelector(".toggle-button");
      if (button) button.click();
    });
    document.querySelectorAll(".selfcheck-hint, .admonition.hint[hidden]").forEach((h) => (h.hidden = false));
    await new Promise((r) => setTimeout(r, 600));
    if (window.MathJax && MathJax.startup) await MathJax.startup.promise;
    if (window.irmeansPage) window.irmeansPage.update();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  }

  // Answer every self-check of the page, right and wrong in turn (a number's answer is in the form's
  // data-answer; a choice's is the value of its right radio button), so that the feedback of both kinds
  // shows: what a reader sees after checking an answer. A course's site has no answers: its forms stay.
  function answerAll() {
    const forms = Array.from(document.querySelectorAll("form.selfcheck-form[data-answer]"));
    forms.forEach((form, i) => {
      const right = i % 2 === 0;
      if (form.dataset.kind === "number") {
        const answer = Number(form.dataset.answer);
        const input = form.querySelector("input.selfcheck-input");
        input.value = String(right ? answer : answer + 10 * Number(form.dataset.tolerance || 0) + 1);
      } else {
        const radios = Array.from(form.querySelectorAll("input[type=radio]"));
        const pick = radios.find((r) => (r.value === form.dataset.answer) === right);
        if (pick) pick.checked = true;
      }
      form.requestSubmit();
    });
    return forms.length;
  }

  // The first box around ``el`` that clips or scrolls, and how far ``el`` reaches past it.
  function past(el, box) {
    const r = el.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    const s = getComputedStyle(box);
    const left = b.left + box.clientLeft, top = b.top + box.clientTop;
    const right = left + box.clientWidth, bottom = top + box.clientHeight;
    const out = [];
    if (clips(s.overflowX) && r.right > right + 1) out.push(`right by ${Math.round(r.right - right)} px`);
    if (clips(s.overflowX) && r.left < left - 1) out.push(`left by ${Math.round(left - r.left)} px`);
    if (clips(s.overflowY) && r.bottom > bottom + 1) out.push(`bottom by ${Math.round(r.bottom - bottom)} px`);
    if (clips(s.overflowY) && r.top < top - 1) out.push(`top by ${Math.round(top - r.top)} px`);
    return out;
  }

  // Everything in the main column that reaches past a box of its own that clips it (cut), or that
  // scrolls it (the scrolling box is reported once, with what a reader is shown of it).
  function boxes() {
    const cut = [];
    const scrolling = new Map();
    const col = column();
    for (const el of col.querySelectorAll("*")) {
      if (el.closest("mjx-assistive-mml, .irmeans-figure") || !visible(el)) continue;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (!clips(s.overflowX) && !clips(s.overflowY)) continue;
        const over = past(el, a);
        if (over.length && !srOnly(el)) {
          if (scrolls(s.overflowX) || scrolls(s.overflowY)) {
            if (!scrolling.has(a)) scrolling.set(a, `${name(el)}: ${over.join(", ")}`);
          } else {
            cut.push(`${name(el)} cut by ${name(a)} (${over.join(", ")}): "${text(el)}"`);
          }
        }
        break;
      }
    }
    // A box whose own text is wider than it (an output's <pre> holds text, not elements: an error
    // message or a table printed as text scrolled at 1366 px, and no element inside reached past it).
    for (const box of col.querySelectorAll("*")) {
      if (scrolling.has(box) || box.closest("mjx-assistive-mml, .irmeans-figure") || !visible(box)) continue;
      const s = getComputedStyle(box);
      if (scrolls(s.overflowX) && box.scrollWidth > box.clientWidth + 1)
        scrolling.set(box, `its text: ${box.scrollWidth} px in ${box.clientWidth} px`);
    }
    const scrollers = Array.from(scrolling, ([box, what]) => {
      const s = getComputedStyle(box);
      return {
        box: name(box),
        what: what,
        text: text(box),
        maths: Boolean(box.closest("mjx-container, div.math")),
        code: box.tagName === "PRE" || Boolean(box.closest("pre")),
        table: box.tagName === "TABLE" || Boolean(box.querySelector("table")),
        cue: box.classList.contains("irmeans-more-right") || box.classList.contains("irmeans-more-left"),
        mask: (s.maskImage || s.webkitMaskImage || "none") !== "none",
        focusable: box.tabIndex >= 0,
      };
    });
    return { cut: Array.from(new Set(cut)).slice(0, 20), scrollers: scrollers };
  }

  // Each displayed equation: the width of its maths against its box and the main column.
  function equations() {
    const col = column().getBoundingClientRect();
    return Array.from(document.querySelectorAll(".bd-article mjx-container[display='true']"))
      .filter(visible)
      .map((c) => {
        const m = c.querySelector("mjx-math").getBoundingClientRect();
        const box = c.getBoundingClientRect();
        return {
          text: text(c.querySelector("mjx-assistive-mml") || c),
          width: Math.round(m.width),
          box: Math.round(box.width),
          column: Math.round(col.width),
          inside: m.left >= col.left - 1 && m.right <= col.right + 1 && m.width <= box.width + 1,
        };
      });
  }

  // A framed box (border, background of its own, shadow) with nothing in it.
  function empty() {
    const out = [];
    for (const el of column().querySelectorAll("*")) {
      if (!visible(el) || srOnly(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.width < 8 || r.height < 8) continue;
      if (el.matches("input, select, textarea, button, img, svg, svg *, canvas, hr, iframe, mjx-container, mjx-container *"))
        continue;
      const s = getComputedStyle(el);
      const parent = getComputedStyle(el.parentElement);
      const border = ["Top", "Right", "Bottom", "Left"].some(
        (k) => parseFloat(s["border" + k + "Width"]) > 0 && s["border" + k + "Style"] !== "none"
      );
      const fill = s.backgroundColor !== "rgba(0, 0, 0, 0)" && s.backgroundColor !== parent.backgroundColor;
      if (!border && !fill && s.boxShadow === "none") continue;
      if ((el.innerText || "").trim()) continue;
      if (el.querySelector("img, svg, canvas, input, select, textarea, button, mjx-container, iframe")) continue;
      out.push(`${name(el)}, ${Math.round(r.width)} × ${Math.round(r.height)} px at y = ${Math.round(r.top + scrollY)}`);
    }
    return out;
  }

  // Each text table: whether it fits its box, is stacked, and what its stacked cells are labelled.
  function tables() {
    return Array.from(document.querySelectorAll(".bd-article .pst-scrollable-table-container > table"))
      .filter(visible)
      .map((t) => {
        const box = t.parentElement;
        const cells = Array.from(t.querySelectorAll("tbody td"));
        return {
          text: text(t),
          numbers: t.classList.contains("dataframe"),
          fits: t.getBoundingClientRect().width <= box.clientWidth + 1,
          stacked: t.classList.contains("irmeans-stacked"),
          labels: Array.from(new Set(cells.map((td) => getComputedStyle(td, "::before").content))),
          headers: Array.from(t.querySelectorAll("thead th")).map((th) => JSON.stringify(th.textContent.trim())),
        };
      });
  }

  // Per figure, each framed read-out (a view drawn with a visible frame whose only marks are text)
  // whose text reaches outside its frame.
  function framedText() {
    const out = [];
    for (const fig of document.querySelectorAll(".irmeans-figure")) {
      for (const scope of fig.querySelectorAll("svg g.mark-group.role-scope > g")) {
        const frame = scope.querySelector(":scope > path.background");
        if (!frame) continue;
        const marks = scope.querySelectorAll(":scope > g > g.role-mark, :scope > g.role-mark");
        if (!marks.length || !Array.from(marks).every((m) => m.classList.contains("mark-text"))) continue;
        const s = getComputedStyle(frame);
        const stroke = frame.getAttribute("stroke") || s.stroke;
        const opacity = parseFloat(frame.getAttribute("stroke-opacity") || s.strokeOpacity || "1");
        if (!stroke || stroke === "none" || stroke === "transparent" || opacity === 0) continue;
        const f = frame.getBoundingClientRect();
        if (f.width < 2 || f.height < 2) continue;
        for (const t of scope.querySelectorAll(":scope > g > g.role-mark text, :scope > g.role-mark text")) {
          const r = t.getBoundingClientRect();
          if (!r.width) continue;
          if (r.top < f.top - 2 || r.bottom > f.bottom + 2 || r.left < f.left - 2 || r.right > f.right + 2)
            out.push(`${fig.id}: "${t.textContent}" at ${Math.round(r.top)}..${Math.round(r.bottom)} outside its frame ${Math.round(f.top)}..${Math.round(f.bottom)}`);
        }
      }
    }
    return out;
  }

  return { openAll, answerAll, boxes, equations, empty, tables, framedText };
})();
