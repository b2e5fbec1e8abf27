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
// - Each edition says which it is, on its first page and in the document's title (the PDF's).
// - Every link leads somewhere on paper: a link into the book (a citation, a cross-reference, a
//   solution's "Exercise 4.1") goes to its place in the PDF; a link to a file of the site the PDF was
//   printed from (the two editions, the search page) is left as text, since no such server is there
//   for the reader; a link to another site stays a link.
// - The library's and the command line's reference (make_pdf.REFERENCE_DOCS) is moved to the very end,
//   an appendix of its own that a printed copy may leave out; the contents page says which pages.
// - A table of numbers too wide for the column, each row kept on one line, is split into tables of
//   fewer columns, each with the rows' labels (pandas' index), one below the other; a column of text
//   too wide to share a line with the labels gets a part of its own, where its text wraps.
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

  // The edition, named under the book's title on the first page and in the document's title.
  function nameEdition(edition) {
    const title = document.querySelector(".bd-article section h1");
    const line = el("p", { class: "irmeans-edition", id: "irmeans-edition" });
    line.appendChild(el("strong", {}, edition.name));
    line.appendChild(document.createTextNode(`: ${edition.description}`));
    title.insertAdjacentElement("afterend", line);
    document.title = `${headingText(title)} (${edition.name.toLowerCase()})`;
  }

  // Links for paper: into the PDF itself, to another site, or none (see the top of this file).
  function paperLinks(address) {
    const page = new URL(document.baseURI);
    const counts = { internal: 0, external: 0, unlinked: 0, dangling: [] };
    const unlink = (a) => {
      const span = el("span", { class: "irmeans-was-link" });
      while (a.firstChild) span.appendChild(a.firstChild);
      a.replaceWith(span);
      counts.unlinked++;
    };
    for (const a of Array.from(document.querySelectorAll("a[href]"))) {
      const url = new URL(a.getAttribute("href"), page);
      const local = url.origin === page.origin;
      const thisPage = local && (url.pathname === page.pathname || url.pathname.endsWith("/chapters/index.html"));
      if (thisPage && url.hash) {
        const id = decodeURIComponent(url.hash.slice(1));
        if (document.getElementById(id)) {
          a.setAttribute("href", "#" + id);
          counts.internal++;
        } else {
          counts.dangling.push(a.getAttribute("href"));
          unlink(a);
        }
      } else if (local) {
        // A file of the site: at the site's public address, if it has one; else text.
        const path = url.pathname.replace(/^\/+/, "");
        if (address && !path.endsWith(".html")) {
          a.setAttribute("href", address.replace(/\/?$/, "/") + path);
          counts.external++;
        } else unlink(a);
      } else counts.external++;
    }
    return counts;
  }

  // The reference (its documents, in order) moved to the end, under a part heading of its own, above the
  // first document's title (as a part's heading is: each document starts a new page).
  function referenceAppendix(docs, caption) {
    const chapters = docs.map(chapterOf).filter(Boolean);
    if (!chapters.length) return null;
    const appendix = el("div", { class: "irmeans-reference-appendix", id: "irmeans-reference-appendix" });
    for (const chapter of chapters) {
      appendix.appendChild(chapter.previousElementSibling); // the document's anchor, span#document-...
      appendix.appendChild(chapter);
    }
    const note = el("p", { class: "irmeans-reference-note" });
    note.appendChild(
      document.createTextNode(
        "The library's functions and the command line, entry by entry, for looking things up. A printed copy " +
          "may leave this appendix out: it is pages "
      )
    );
    note.appendChild(el("span", { class: "irmeans-reference-pages" }, "000\u2013000"));
    note.appendChild(document.createTextNode(", the last of the book."));
    chapters[0].insertBefore(note, chapters[0].firstChild);
    chapters[0].insertBefore(partHeading(caption, "irmeans-reference-part"), note);
    document.querySelector(".bd-article section h1").closest("section").appendChild(appendix);
    return appendix;
  }

  // The column grid of a table: for each row, each cell with the first and last column it covers.
  function grid(table) {
    const taken = [];
    const rows = Array.from(table.rows).map((tr, r) => {
      taken[r] = taken[r] || [];
      let c = 0;
      return Array.from(tr.cells).map((cell) => {
        while (taken[r][c]) c++;
        const span = cell.colSpan || 1;
        for (let dr = 0; dr < (cell.rowSpan || 1); dr++) {
          taken[r + dr] = taken[r + dr] || [];
          for (let dc = 0; dc < span; dc++) taken[r + dr][c + dc] = true;
        }
        const placed = { cell, first: c, last: c + span - 1 };
        c += span;
        return placed;
      });
    });
    return rows;
  }

  // Tables of numbers too wide for the column, split by columns (see the top of this file).
  function splitWideTables() {
    const article = document.querySelector(".bd-article").getBoundingClientRect().width;
    const split = [];
    for (const table of Array.from(document.querySelectorAll(".bd-article .cell_output table"))) {
      table.classList.add("irmeans-one-line-rows");
      const box = table.parentElement;
      const style = getComputedStyle(box);
      const inner = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const column = Math.min(article, inner || article);
      if (table.getBoundingClientRect().width <= column + 0.5) continue;
      const cells = grid(table);
      const body = Array.from(table.tBodies).flatMap((b) => Array.from(b.rows));
      const first = body[0];
      if (!first) continue;
      // The rows' labels: the body's leading header cells (pandas' index), kept in every part.
      const placedFirst = cells[first.rowIndex];
      let labels = 0;
      for (const p of placedFirst) {
        if (p.cell.tagName !== "TH") break;
        labels = p.last + 1;
      }
      const ncols = Math.max(...cells.flat().map((p) => p.last + 1));
      const widths = new Array(ncols).fill(0);
      for (const row of cells)
        for (const p of row)
          if (p.first === p.last) widths[p.first] = Math.max(widths[p.first], p.cell.getBoundingClientRect().width);
      const keep = widths.slice(0, labels).reduce((a, b) => a + b, 0);
      // A column of text too wide to share a line with the rows' labels gets a part of its own, last, in
      // which its text wraps (a description, not a number: the numbers stay in parts of their own).
      const isText = (c) => body.some((tr) => cells[tr.rowIndex].some((p) => p.first === c && p.cell.classList.contains("irmeans-text-cell")));
      const wide = [];
      const groups = [];
      let group = [], used = keep;
      for (let c = labels; c < ncols; c++) {
        if (isText(c) && keep + widths[c] > column - 2) {
          wide.push(c);
          continue;
        }
        if (group.length && used + widths[c] > column - 2) {
          groups.push(group);
          group = [];
          used = keep;
        }
        group.push(c);
        used += widths[c];
      }
      if (group.length) groups.push(group);
      for (const c of wide) groups.push([c]);
      if (groups.length < 2 && !wide.length) continue;
      const parts = groups.map((columns, k) => {
        const lo = columns[0], hi = columns[columns.length - 1];
        const part = table.cloneNode(true);
        const placed = grid(part);
        for (const row of placed)
          for (const p of row) {
            if (p.last < labels) continue; // a row's label: in every part
            const inLabels = Math.max(0, Math.min(p.last, labels - 1) - p.first + 1);
            const overlap = Math.max(0, Math.min(p.last, hi) - Math.max(p.first, lo) + 1);
            if (inLabels + overlap === 0) p.cell.remove();
            else p.cell.colSpan = inLabels + overlap;
          }
        part.classList.add("irmeans-table-part");
        if (k > 0) part.classList.add("irmeans-table-continued");
        if (wide.includes(lo)) part.classList.add("irmeans-text-part");
        return part;
      });
      table.replaceWith(...parts);
      split.push({ columns: ncols, parts: parts.length, wrapped: wide.length });
    }
    return split;
  }

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
      const chapters = part.docs
        .map(chapterOf)
        .filter((c) => c && !c.closest(".irmeans-reference-appendix"));
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
    const reference = document.querySelector(".irmeans-reference-appendix");
    if (reference) {
      const heading = reference.querySelector(".irmeans-part");
      add(1, heading, heading.textContent.trim());
      reference.querySelectorAll(":scope > section > h2").forEach((h) => add(2, h));
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

  // A figure that the first print put at the top of a page, after a page left mostly empty: drawn smaller so that
  // it fits the room left there (``gaps``: {figure id: px}), down to the scale at which its smallest text is 9 pt;
  // a figure that cannot fit so is left as it is. Returns what was shrunk.
  function fitFiguresToGaps(gaps) {
    const shrunk = [];
    for (const [id, room] of Object.entries(gaps)) {
      const figure = document.getElementById(id);
      const svg = figure && figure.querySelector(".irmeans-figure svg");
      if (!svg) continue;
      const total = figure.getBoundingClientRect().height;
      const drawn = svg.getBoundingClientRect();
      const sizes = Array.from(svg.querySelectorAll("text")).map((t) => parseFloat(getComputedStyle(t).fontSize));
      const scaleNow = drawn.width / (parseFloat(svg.getAttribute("width")) || drawn.width);
      const smallest = Math.min(...sizes) * scaleNow;
      const scale = (drawn.height - (total - room) - 8) / drawn.height;
      if (scale >= 1 || scale < SMALLEST_PX / smallest) continue;
      svg.style.width = `${drawn.width * scale}px`;
      svg.style.height = "auto";
      shrunk.push({ id, scale: Math.round(scale * 1000) / 1000 });
    }
    return shrunk;
  }

  // ``edition``: {key, name, description}; ``reference``: {docs, caption}; ``address``: the site's public
  // address, or null.
  function prepare(edition, parts, reference, address) {
    document.documentElement.dataset.irmeansEdition = edition.key;
    nameEdition(edition);
    addParts(parts);
    if (edition.key === "instructor") answerKey(parts);
    else document.querySelectorAll(".bd-article .solution").forEach((s) => s.remove());
    referenceAppendix(reference.docs, reference.caption);
    const links = paperLinks(address);
    const contents = addContents(parts);
    const tables = splitWideTables();
    return { contents, links, tables, shrunk: fitFiguresToPages() };
  }

  // The page each contents entry starts on, once known: {id: page}; ``last``, the PDF's last page.
  function fillContents(pages, last) {
    for (const item of document.querySelectorAll(".irmeans-contents li")) {
      const page = pages[item.dataset.target];
      item.querySelector(".irmeans-contents-page").textContent = page ? String(page) : "";
    }
    const range = document.querySelector(".irmeans-reference-pages");
    const start = pages["irmeans-reference-part"];
    if (range && start) range.textContent = `${start}\u2013${last}`;
  }

  return { prepare, fillContents, fitFiguresToGaps };
})();
