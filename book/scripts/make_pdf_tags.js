// The single-page book made ready for a tagged PDF (book/scripts/make_pdf.py runs this in Chromium, after
// make_pdf_paper.js and before printing). Chromium builds the PDF's tags from the page's accessibility tree,
// so what a screen reader meets in the PDF is decided here.
//
// - Each formula is one image with its spoken form as its name ("AM equals the fraction with numerator 1
//   and denominator t ..."), made by MathJax's speech rule engine from the formula's MathML: its glyphs were
//   text runs outside every tag, and a reader heard "AM = t ∑ xi , i=1 t 1/t".
// - Each chart is one image named by its description (the site's text alternative, at the setting the
//   paper shows), inside the figure with its caption: Vega's labels of every mark (1,170 nested figures)
//   are hidden; a "your scores" box's name lists its table's values ("AM, System A: 0.4220; ...").
window.irmeansTags = (() => {
  // MathJax's speech rule engine, loaded from the book's own copy (vendor_assets.py), in English.
  async function speechEngine() {
    await MathJax.loader.load("a11y/sre");
    const Sre = MathJax._.a11y.sre.Sre;
    const json = new URL("_static/mathjax/sre/mathmaps", document.baseURI).href;
    await Sre.setupEngine({ locale: "en", domain: "clearspeak", modality: "speech", json });
    await Sre.sreReady();
    return Sre;
  }

  const GLYPH_STYLE = [
    "display", "position", "top", "left", "right", "bottom", "width", "height", "padding-top", "padding-right",
    "padding-bottom", "padding-left", "margin-top", "margin-right", "margin-bottom", "margin-left", "font-family",
    "font-size", "font-style", "font-weight", "line-height", "vertical-align", "transform", "color",
  ];

  // MathJax draws each glyph as CSS generated content (an mjx-c's ::before), which Chromium paints outside every
  // tag: each becomes text of its own element, in the same font and place, and the generated content goes.
  function glyphsAsText(box) {
    for (const el of box.querySelectorAll("*")) {
      for (const where of ["before", "after"]) {
        const content = getComputedStyle(el, `::${where}`).content;
        if (!content || content === "none" || content === "normal" || !/^".*"$/s.test(content)) continue;
        const text = JSON.parse(content);
        if (!text) continue;
        // Laid out as the generated content was: MathJax sizes a glyph's box by its padding and draws the glyph
        // in a block of no width.
        const pseudo = getComputedStyle(el, `::${where}`);
        const glyph = document.createElement("mjx-glyph");
        for (const property of GLYPH_STYLE) glyph.style.setProperty(property, pseudo.getPropertyValue(property));
        glyph.style.whiteSpace = "pre";
        glyph.textContent = text;
        if (where === "before") el.insertBefore(glyph, el.firstChild);
        else el.appendChild(glyph);
        el.classList.add(`irmeans-no-${where}`);
      }
    }
  }

  const NO_GENERATED = document.createElement("style");
  NO_GENERATED.textContent =
    ".irmeans-no-before::before { content: none !important; } .irmeans-no-after::after { content: none !important; }";

  // Every typeset formula, those copied into the answers' appendix too: role img, its spoken form (from the MathML
  // copy MathJax keeps beside it) as its name. Returns how many, and any it could not say.
  async function formulas() {
    if (!window.MathJax || !MathJax.startup || !MathJax.startup.document) return { formulas: 0, unsaid: [] };
    await MathJax.startup.promise;
    const Sre = await speechEngine();
    document.head.appendChild(NO_GENERATED);
    const unsaid = [];
    let count = 0;
    for (const box of document.querySelectorAll("mjx-container")) {
      const mathml = box.querySelector("mjx-assistive-mml math");
      let said = "";
      try {
        said = mathml ? Sre.toSpeech(mathml.outerHTML).trim() : "";
      } catch (e) {
        said = "";
      }
      if (!said) {
        unsaid.push(box.textContent.slice(0, 60));
        continue;
      }
      box.setAttribute("role", "img");
      box.setAttribute("aria-label", said);
      // Its glyphs, hidden from the accessibility tree in favour of the MathML copy, are the image's content:
      // hidden, the image had none, and Chromium gave it no tag.
      box.querySelectorAll("mjx-assistive-mml").forEach((m) => m.remove());
      box.querySelectorAll("[aria-hidden]").forEach((e) => e.removeAttribute("aria-hidden"));
      glyphsAsText(box);
      count++;
    }
    return { formulas: count, unsaid };
  }

  // Every chart: one image, named by its description; a "your scores" box's with its table's values.
  function charts() {
    const named = [];
    for (const chart of document.querySelectorAll(".irmeans-figure")) {
      let label = (chart.getAttribute("aria-label") || "").trim();
      if (chart.querySelector(".vega-bindings input[type=text]")) {
        const cells = Array.from(chart.querySelectorAll("svg [aria-label]"), (e) => e.getAttribute("aria-label"))
          .filter((t) => /, (System A|System B|Higher): /.test(t));
        if (cells.length) label += ` Values: ${cells.join("; ")}.`;
      }
      // The chart's drawing is the image (so that its marks and words are inside the image's tag), the
      // element around it nothing of its own, and the figure around both a group of the image and its caption.
      const svg = chart.querySelector("svg");
      if (!svg) continue;
      chart.setAttribute("role", "none");
      chart.removeAttribute("aria-label");
      chart.removeAttribute("aria-roledescription");
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", label);
      svg.removeAttribute("aria-roledescription");
      chart.querySelectorAll(".vega-bindings").forEach((part) => part.setAttribute("aria-hidden", "true"));
      const figure = chart.closest("figure");
      if (figure) figure.setAttribute("role", "group");
      named.push(label);
    }
    return named;
  }

  async function prepare() {
    const maths = await formulas();
    return { ...maths, charts: charts() };
  }

  return { prepare };
})();
