// The single-page book made into one of its two paper editions (book/scripts/make_pdf.py runs this
// in Chromium before printing).
//
// - Each part of the book (_toc.yml's captions) gets a heading, above its first chapter's title, that
//   the PDF's outline lists at the top level, with the part's chapters and their sections under it.
// - A contents page follows the title page: parts, chapters and sections, with the pages they start
//   on once the PDF has been printed once (fillContents).
// - The student's edition leaves the solutions out. The instructor's moves every exercise's solution,
//   and every self-check's answer and hint, into an appendix at the back, chapter by chapter.
// - A figure taller than what a page holds with its caption is drawn a little smaller (never with text
//   below 9 pt), so that the two share a page.
window.irmeansPaper = (() => {
  const PAGE_PX = 994; // the height of the paper's column: A4 less the top and bottom margins, in CSS px
  const SMALLEST_PX = 12; // 9 pt: no figure is shrunk below it

  const el = (tag, attributes = {}, text = "") => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    if (text) node.textContent = text;
    return node;
  };
  const headingText = (h) => {
    const copy = h.cloneNode(true);
    copy.querySelectorAll(".headerlink").forEach((a) => a.remove());
    return copy.textContent.replace(/\s+/g, " ").trim();
  };
  // The chapter's section that follows the anchor Sphinx writes for each document of the single page.
  const chapterOf = (doc) => {
    const anchor = document.getElementById(`document-${doc}`);
    return anchor && anchor.nextElementSibling && anchor.nextElementSibling.tagName === "SECTION"
      ? anchor.nextElementSibling
      : null;
  };
  const partHeading = (text, id) => el("div", { class: "irmeans-part", role: "heading", "aria-level": "1", id }, text);

  function addParts(parts) {
    parts.forEach((part, i) => {
      const first = chapterOf(part.docs[0]);
      if (first) first.insertBefore(partHeading(part.caption, `irmeans-part-${i + 1}`), first.firstChild);
    });
  }

  // The instructor's appendix: for each chapter with exercises, their solutions and the self-checks'
  // answers and hints, in the chapter's order.
  function answerKey(parts) {
    const appendix = el("section", { class: "irmeans-answers", id: "irmeans-answers" });
    appendix.appendChild(partHeading("Appendix: Solutions and self-check answers", "irmeans-answers-part"));
    for (const part of parts) {
      for (const doc of part.docs) {
        const chapter = chapterOf(doc);
        if (!chapter) continue;
        const items = chapter.querySelectorAll(".solution, .exercise.selfcheck");
        if (!items.length) continue;
        const block = el("section", { class: "irmeans-answers-chapter" });
        block.appendChild(el("h2", {}, `Answers: ${headingText(chapter.querySelector("h2"))}`));
        for (const item of items) {
          if (item.classList.contains("solution")) {
            block.appendChild(item); // moved, title ("Solution to Exercise 4.1") and all
            continue;
          }
          const form = item.querySelector("form.selfcheck-form");
          const answer = el("div", { class: "admonition irmeans-selfcheck-answer" });
          const number = item.querySelector(".caption-number");
          const title = el("p", { class: "admonition-title" }, `Answer to ${number ? number.textContent.trim() : "Exercise"} (self-check)`);
          answer.appendChild(title);
          answer.appendChild(el("p", {}, `Answer: ${form ? form.dataset.shown : "(none given)"}`));
          const hint = item.querySelector(".selfcheck-hint");
          if (hint) {
            for (const h of hint.children) {
              const copy = h.cloneNode(true);
              copy.classList.add("irmeans-printed-hint");
              answer.appendChild(copy);
            }
          }
          block.appendChild(answer);
        }
        appendix.appendChild(block);
      }
    }
    // At the very back, after the bibliography: the last thing in the book's outermost section.
    document.querySelector(".bd-article section h1").closest("section").appendChild(appendix);
  }

  // The contents page: every part, its chapters and, in the numbered parts, their sections, each with
  // a slot for its page number; then the instructor's appendix, chapter by chapter.
  function addContents(parts) {
    const entries = [];
    let n = 0;
    const add = (level, h, text) => {
      if (!h.id) h.id = `irmeans-heading-${++n}`;
      entries.push({ level, text: text || headingText(h), id: h.id });
    };
    for (const part of parts) {
      const chapters = part.docs.map(chapterOf).filter(Boolean);
      const heading = chapters.length && chapters[0].querySelector(":scope > .irmeans-part");
      if (heading) add(1, heading, heading.textContent.trim());
      for (const chapter of chapters) {
        add(2, chapter.querySelector(":scope > h2"));
        if (part.numbered) chapter.querySelectorAll(":scope > section > h3").forEach((h) => add(3, h));
      }
    }
    const answers = document.querySelector(".irmeans-answers");
    if (answers) {
      const heading = answers.querySelector(".irmeans-part");
      add(1, heading, heading.textContent.trim());
      answers.querySelectorAll(".irmeans-answers-chapter > h2").forEach((h) => add(2, h));
    }
    const nav = el("nav", { class: "irmeans-contents", "aria-label": "Contents" });
    nav.appendChild(el("h2", { class: "irmeans-contents-title" }, "Contents"));
    const list = el("ol", { class: "irmeans-contents-list" });
    for (const e of entries) {
      const item = el("li", { class: `irmeans-contents-${e.level}`, "data-target": e.id });
      const link = el("a", { href: `#${e.id}` }, e.text);
      item.appendChild(link);
      item.appendChild(el("span", { class: "irmeans-contents-page" }, "000"));
      list.appendChild(item);
    }
    nav.appendChild(list);
    // After the front page's text, before its first part: the chapters follow, each on a new page.
    const first = document.querySelector(".bd-article .toctree-wrapper");
    first.parentElement.insertBefore(nav, first);
    return entries.map(({ id, text }) => ({ id, text }));
  }

  // Each figure with its caption on one page: a figure too tall for that is drawn smaller, down to the
  // scale at which its smallest text is 9 pt.
  function fitFiguresToPages() {
    const shrunk = [];
    for (const figure of document.querySelectorAll(".bd-article figure")) {
      const svg = figure.querySelector(".irmeans-figure svg");
      if (!svg) continue;
      const total = figure.getBoundingClientRect().height;
      if (total <= PAGE_PX) continue;
      const drawn = svg.getBoundingClientRect();
      const sizes = Array.from(svg.querySelectorAll("text")).map((t) => parseFloat(getComputedStyle(t).fontSize));
      const scaleNow = drawn.width / (parseFloat(svg.getAttribute("width")) || drawn.width);
      const smallest = Math.min(...sizes) * scaleNow;
      const wanted = (drawn.height - (total - PAGE_PX) - 4) / drawn.height;
      const scale = Math.max(wanted, SMALLEST_PX / smallest);
      svg.style.width = `${drawn.width * scale}px`;
      svg.style.height = "auto";
      shrunk.push({ id: figure.id, scale: Math.round(scale * 1000) / 1000 });
    }
    return shrunk;
  }

  function prepare(edition, parts) {
    document.documentElement.dataset.irmeansEdition = edition;
    addParts(parts);
    if (edition === "instructor") answerKey(parts);
    else document.querySelectorAll(".bd-article .solution").forEach((s) => s.remove());
    const contents = addContents(parts);
    return { contents, shrunk: fitFiguresToPages() };
  }

  // The page each contents entry starts on, once known: {id: page}.
  function fillContents(pages) {
    for (const item of document.querySelectorAll(".irmeans-contents li")) {
      const page = pages[item.dataset.target];
      item.querySelector(".irmeans-contents-page").textContent = page ? String(page) : "";
    }
  }

  return { prepare, fillContents };
})();
