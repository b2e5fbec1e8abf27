// The book's interactive figures on the site (see irmeans_book.plots.embed_html).
//
// A figure is a Vega-Lite spec drawn with the site's own vega-embed. Here it is
// fitted to the reader's page before it is drawn:
// - it fits its column: on a narrow screen (or when it would not fit) panels side
//   by side are stacked, legends go below the plot, and plot widths shrink until the
//   figure is no wider than its column; it is drawn again when the column's width changes;
// - its text is at least 13 px;
// - its text, axes and lines drawn in black take the page's text colour, and it has
//   no background of its own, so it follows the page's light or dark mode;
// - a spec's usermeta may ask for two behaviours: "irmeans_at_least" {"R": "floor"}
//   keeps the parameter R at least the value of the parameter floor (so a slider never
//   reads less than what the figure uses), and "irmeans_click_toggles"
//   {"field": "rank", "param": "rank"} makes a click on a mark whose datum has
//   rank = k toggle the checkbox parameter rank<k>;
// - a read-out (a view holding one line of text, made from the controls' values) has no
//   frame: broken into lines on a narrow screen, it would outgrow a frame made for one;
// - a slider's value is shown in a box as wide as its longest value, so the slider does not
//   move when the value gains a digit;
// - printed (make pdf emulates print, then calls window.irmeansRefit), a figure is fitted to
//   the paper's column and widened to it when its panels are stacked.
// - its words follow its controls: its text alternative is what it shows at any setting and what it shows
//   at the reader's setting (the spec's usermeta "irmeans_overview", and the row of "irmeans_states" for the
//   controls' values, or the text of the parameters and marks named irmeans_state...: irmeans_book.plots.show),
//   and a change is announced, in a live region under the figure (class irmeans-now); a text box whose entries
//   are not all scores is marked aria-invalid (a state mark's datum names it: irmeans_input, irmeans_invalid);
// - the values its tooltips show, which a keyboard cannot reach, are in tables behind a "Show the data of
//   Fig. N" toggle under it, as the figure shows them now.
// Once drawn, a figure's vega-embed result is window.irmeansFigures[id].
(function () {
  "use strict";

  var figures = (window.irmeansFigures = window.irmeansFigures || {});
  var MIN_FONT = 13;
  var NARROW = 600; // px of column: below it, panels are stacked from the start
  var INK = "currentColor"; // the figure element's CSS colour: the page's text colour
  var BLACK = /^(#000|#000000|black)$/i;
  var SIZE_KEYS = /^(fontSize|labelFontSize|titleFontSize|subtitleFontSize)$/;
  var drawn = {}; // id -> {spec, width, result}

  function clone(x) {
    return JSON.parse(JSON.stringify(x));
  }

  function isObject(x) {
    return x !== null && typeof x === "object" && !Array.isArray(x);
  }

  // Every text at least MIN_FONT px; black becomes the page's text colour.
  function siteStyle(node) {
    if (Array.isArray(node)) {
      node.forEach(siteStyle);
      return;
    }
    if (!isObject(node)) return;
    Object.keys(node).forEach(function (key) {
      var value = node[key];
      if (key === "data" || key === "datasets") return;
      if (SIZE_KEYS.test(key) && typeof value === "number" && value < MIN_FONT) node[key] = MIN_FONT;
      else if (typeof value === "string" && BLACK.test(value)) node[key] = INK;
      else siteStyle(value);
    });
  }

  function siteConfig(spec) {
    var config = (spec.config = spec.config || {});
    var merge = function (part, values) {
      config[part] = Object.assign({}, config[part] || {}, values);
    };
    config.background = null;
    merge("axis", {
      labelColor: INK,
      titleColor: INK,
      domainColor: INK,
      tickColor: INK,
      gridColor: INK,
      gridOpacity: 0.15,
      labelFontSize: Math.max(MIN_FONT, (config.axis || {}).labelFontSize || 0),
      titleFontSize: Math.max(MIN_FONT + 1, (config.axis || {}).titleFontSize || 0),
    });
    merge("legend", {
      labelColor: INK,
      titleColor: INK,
      labelFontSize: Math.max(MIN_FONT, (config.legend || {}).labelFontSize || 0),
      titleFontSize: Math.max(MIN_FONT + 1, (config.legend || {}).titleFontSize || 0),
    });
    merge("header", { labelColor: INK, titleColor: INK, labelFontSize: MIN_FONT, titleFontSize: MIN_FONT + 1 });
    merge("title", { color: INK, subtitleColor: INK, fontSize: MIN_FONT + 2 });
    merge("text", { color: INK, fontSize: MIN_FONT });
    var noFrame = config.view && config.view.stroke === null;
    merge("view", { stroke: noFrame ? null : INK, strokeOpacity: 0.2 });
  }

  // A read-out: a unit view whose only mark is text, one line high (the figures' read-outs are 16-20 px).
  function isReadout(node) {
    var mark = node.mark;
    var type = isObject(mark) ? mark.type : mark;
    return type === "text" && !node.layer && typeof node.height === "number" && node.height <= 30;
  }

  // Read-outs lose their frame: their text may be broken into more lines than the frame holds.
  function unframeReadouts(node) {
    if (Array.isArray(node)) return node.forEach(unframeReadouts);
    if (!isObject(node)) return;
    if (isReadout(node)) node.view = Object.assign({}, node.view || {}, { stroke: null });
    Object.keys(node).forEach(function (key) {
      if (key !== "data" && key !== "datasets") unframeReadouts(node[key]);
    });
  }

  // Panels side by side are put one below the other; facets by column become facets by row.
  function stack(node) {
    if (!isObject(node)) return;
    if (Array.isArray(node.hconcat)) {
      node.vconcat = node.hconcat;
      delete node.hconcat;
    }
    if (Array.isArray(node.concat)) node.columns = 1;
    if (isObject(node.facet) && node.facet.column && !node.facet.row) {
      node.facet.row = node.facet.column;
      delete node.facet.column;
    }
    if (isObject(node.encoding) && node.encoding.column && !node.encoding.row) {
      node.encoding.row = node.encoding.column;
      delete node.encoding.column;
    }
    ["vconcat", "concat", "layer"].forEach(function (key) {
      if (Array.isArray(node[key])) node[key].forEach(stack);
    });
    if (isObject(node.spec)) stack(node.spec);
  }

  // A title in lines of at most ``chars`` characters, broken between words.
  function lines(text, chars) {
    var out = [""];
    text.split(" ").forEach(function (word) {
      var last = out[out.length - 1];
      if (last && (last + " " + word).length > chars) out.push(word);
      else out[out.length - 1] = last ? last + " " + word : word;
    });
    return out.length > 1 ? out : text;
  }

  // Titles too long for the column (a chart's, an axis's) are broken into lines.
  function wrapTitles(node, width, axis) {
    if (Array.isArray(node)) return node.forEach(function (n) { wrapTitles(n, width, axis); });
    if (!isObject(node)) return;
    Object.keys(node).forEach(function (key) {
      var value = node[key];
      if (key === "data" || key === "datasets") return;
      if (key === "title" && typeof value === "string") {
        node[key] = lines(value, axis ? 26 : Math.floor((width - 20) / 8.5));
      } else if (key === "title" && isObject(value) && typeof value.text === "string") {
        value.text = lines(value.text, Math.floor((width - 20) / 8.5));
      } else {
        wrapTitles(value, width, key === "encoding" || (axis && (key === "x" || key === "y")));
      }
    });
  }

  // Legends below their plot, laid out in rows that wrap.
  function legendsBelow(node, width) {
    if (Array.isArray(node)) return node.forEach(function (n) { legendsBelow(n, width); });
    if (!isObject(node)) return;
    Object.keys(node).forEach(function (key) {
      if (key === "legend" && isObject(node[key])) {
        node[key].orient = "bottom";
        node[key].direction = "horizontal";
        node[key].columns = width < NARROW ? 1 : Math.min(node[key].columns || 4, 4);
        node[key].labelLimit = width - 60;
        delete node[key].legendX;
        delete node[key].legendY;
      } else if (key !== "data" && key !== "datasets") legendsBelow(node[key], width);
    });
  }

  function legendConfig(spec, width) {
    var config = (spec.config = spec.config || {});
    config.legend = Object.assign({}, config.legend || {}, {
      orient: "bottom",
      direction: "horizontal",
      columns: width < NARROW ? 1 : 4,
      labelLimit: width - 60,
    });
    // A long line of text (the figures' read-outs separate their parts by two spaces) breaks into lines.
    config.text = Object.assign({}, config.text || {}, { lineBreak: "  " });
  }

  // A copy of ``spec`` whose sized views are ``factor`` times as wide.
  function widened(spec, factor) {
    var out = clone(spec);
    sizedViews(out, []).forEach(function (v) {
      var w = viewWidth(v, null);
      if (w !== null) v.width = Math.floor(w * factor);
      else if (isObject(v.width) && typeof v.width.step === "number") v.width = { step: v.width.step * factor };
    });
    return out;
  }

  // How far the figure's legends reach from its left edge, in px as drawn.
  function legendReach(el) {
    var svg = el.querySelector("svg");
    if (!svg) return 0;
    var left = svg.getBoundingClientRect().left;
    var scale = svg.getBoundingClientRect().width / (svgWidth(el) || 1);
    var reach = 0;
    svg.querySelectorAll(".role-legend").forEach(function (g) {
      reach = Math.max(reach, (g.getBoundingClientRect().right - left) / scale);
    });
    return reach;
  }

  // Every legend of the figure in at most ``cols`` columns.
  function legendColumns(node, cols) {
    if (Array.isArray(node)) return node.forEach(function (n) { legendColumns(n, cols); });
    if (!isObject(node)) return;
    Object.keys(node).forEach(function (key) {
      if (key === "legend" && isObject(node[key])) node[key].columns = Math.min(node[key].columns || cols, cols);
      else if (key === "config" && isObject(node[key])) {
        node[key].legend = Object.assign({}, node[key].legend || {}, { columns: cols });
      } else if (key !== "data" && key !== "datasets") legendColumns(node[key], cols);
    });
  }

  // The views whose width can be set: units and layers, not inside a facet.
  function sizedViews(node, out) {
    if (!isObject(node)) return out;
    var concat = node.vconcat || node.hconcat || node.concat;
    if (Array.isArray(concat)) concat.forEach(function (n) { sizedViews(n, out); });
    else if (!node.facet && (node.mark || node.layer)) out.push(node);
    else if (node.facet && isObject(node.spec)) out.push(node.spec);
    return out;
  }

  function viewWidth(view, fallback) {
    if (typeof view.width === "number") return view.width;
    if (isObject(view.width) && typeof view.width.step === "number") return null;
    return fallback;
  }

  // Narrow every sized view of the top-level panel ``index`` (or all) by ``excess`` px.
  function narrow(spec, excess, index) {
    var panels = spec.vconcat || spec.hconcat || spec.concat;
    var roots = Array.isArray(panels) && index !== undefined ? [panels[index]] : [spec];
    roots.forEach(function (root) {
      sizedViews(root, []).forEach(function (view) {
        var w = viewWidth(view, 200);
        if (w === null) view.width = { step: Math.max(8, Math.floor(view.width.step * 0.75)) };
        else view.width = Math.max(60, Math.floor(w - excess));
      });
    });
  }

  // How far each top-level panel reaches past ``width`` (the panels of a stacked figure).
  function excesses(view, width) {
    var root = view.scenegraph().root;
    var top = root && root.items && root.items[0];
    var pad = 10;
    var out = [];
    if (!top || !top.items) return out;
    top.items.forEach(function (mark) {
      var m = /^concat_(\d+)_group$/.exec(mark.name || "");
      if (!m || !mark.items || !mark.items[0]) return;
      var item = mark.items[0];
      var reach = (item.x || 0) + (item.bounds ? item.bounds.x2 : item.width || 0) + pad;
      out[+m[1]] = Math.ceil(reach - width);
    });
    return out;
  }

  // The width the figure may take: its container's, less the container's padding.
  function columnWidth(el) {
    var parent = el.parentElement;
    var style = getComputedStyle(parent);
    var w = parent.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return Math.floor(w) || 700;
  }

  // The width the figure was drawn at (the page may scale it down to its column: see irmeans.css).
  function svgWidth(el) {
    var svg = el.querySelector("svg");
    return svg ? parseFloat(svg.getAttribute("width")) || svg.getBoundingClientRect().width : 0;
  }

  // The parameters' current values, so a figure drawn again keeps the reader's settings.
  function keepSettings(spec, previous) {
    if (!previous || !Array.isArray(spec.params)) return;
    spec.params.forEach(function (p) {
      if (!p.bind || p.select) return;
      try {
        var value = previous.view.signal(p.name);
        if (value !== undefined) p.value = value;
      } catch (e) {
        /* not a signal of the old view */
      }
    });
  }

  function behaviours(result, spec) {
    var view = result.view;
    var meta = spec.usermeta || {};
    var atLeast = meta.irmeans_at_least || {};
    Object.keys(atLeast).forEach(function (name) {
      var floor = atLeast[name];
      var clamp = function () {
        var least = view.signal(floor);
        if (view.signal(name) < least) {
          view.signal(name, least).runAsync();
          // The input shows the value the figure uses (and its read-out, for a slider).
          view.container().querySelectorAll(".vega-bindings [name='" + name + "']").forEach(function (input) {
            input.value = least;
            var shown = input.nextElementSibling;
            if (shown && shown.tagName === "SPAN") shown.textContent = least;
          });
        }
      };
      view.addSignalListener(name, clamp);
      view.addSignalListener(floor, clamp);
      clamp();
    });
    var click = meta.irmeans_click_toggles;
    if (click) {
      view.addEventListener("click", function (event, item) {
        var value = item && item.datum ? item.datum[click.field] : undefined;
        if (value === undefined || value === null) return;
        var name = click.param + value;
        var current;
        try {
          current = view.signal(name);
        } catch (e) {
          return;
        }
        view.signal(name, !current).runAsync();
      });
    }
  }

  // Draw ``spec`` in the element ``id``, fitted to its width; resolves with vega-embed's result.
  async function fit(id, spec) {
    var el = document.getElementById(id);
    delete el.dataset.fitted;
    var width = columnWidth(el);
    var state = drawn[id] || {};
    var previous = state.result;
    var base = clone(spec);
    keepSettings(base, previous);
    siteConfig(base);
    siteStyle(base);
    unframeReadouts(base);
    var steps = width < NARROW ? [2] : [0, 1, 2];
    var result, candidate;
    for (var s = 0; s < steps.length; s++) {
      candidate = clone(base);
      if (steps[s] >= 1) {
        legendsBelow(candidate, width);
        legendConfig(candidate, width);
      }
      if (steps[s] >= 2) {
        stack(candidate);
        wrapTitles(candidate, width, false);
      }
      result = await draw(el, candidate, result || previous);
      if (svgWidth(el) <= width + 0.5) break;
    }
    // Still too wide because of a legend: fewer columns of legend entries (4, then 2, then 1).
    for (var cols = 2; cols >= 1 && legendReach(el) > width + 0.5; cols--) {
      legendColumns(candidate, cols);
      result = await draw(el, candidate, result);
    }
    // Still too wide: narrow the panels that reach past the column, and draw again.
    var before = Infinity;
    for (var round = 0; round < 3 && svgWidth(el) > width + 0.5 && svgWidth(el) < before - 0.5; round++) {
      before = svgWidth(el);
      var over = excesses(result.view, width);
      if (over.some(function (x) { return x > 0; })) {
        over.forEach(function (x, i) { if (x > 0) narrow(candidate, x, i); });
      } else {
        narrow(candidate, Math.ceil(svgWidth(el) - width) + 4);
      }
      result = await draw(el, candidate, result);
    }
    // On paper, a figure narrower than the column is widened to it: its plots, not its text, by the
    // largest factor that still fits (found in a few halvings).
    if (printing() && svgWidth(el) < width - 40 && sizedViews(candidate, []).length) {
      var fits = 1, tooWide = (2 * width) / svgWidth(el), drawnAt = 1;
      for (var half = 0; half < 6; half++) {
        var f = (fits + tooWide) / 2;
        result = await draw(el, widened(candidate, f), result);
        drawnAt = f;
        if (svgWidth(el) <= width + 0.5) fits = f;
        else tooWide = f;
      }
      if (drawnAt !== fits) result = await draw(el, widened(candidate, fits), result);
    }
    drawn[id] = { spec: spec, width: width, result: result };
    el.dataset.fitted = "true";
    return result;
  }

  // Whether the page is being laid out for paper.
  function printing() {
    return window.matchMedia && window.matchMedia("print").matches;
  }

  // Each slider's value gets the width of its longest value (the span vega-embed puts after it).
  function steadyValues(el) {
    el.querySelectorAll(".vega-bindings input[type=range]").forEach(function (input) {
      var shown = input.nextElementSibling;
      if (!shown || shown.tagName !== "SPAN") return;
      var min = +input.min, max = +input.max, step = +input.step || 1;
      var probe = document.createElement("input");
      probe.type = "range";
      probe.min = input.min;
      probe.max = input.max;
      probe.step = input.step;
      var longest = Math.max(String(min).length, String(max).length);
      var count = Math.floor((max - min) / step);
      for (var i = 0; i <= count && i <= 2000; i++) {
        probe.value = String(min + i * step);
        longest = Math.max(longest, probe.value.length);
      }
      shown.style.minWidth = longest + "ch";
    });
  }

  async function draw(el, spec, previous) {
    if (previous) previous.finalize();
    var result = await vegaEmbed(el, spec, { renderer: "svg", actions: false });
    figures[el.id] = result;
    steadyValues(el);
    behaviours(result, spec);
    await result.view.runAsync();
    words(el, result, spec);
    return result;
  }

  // ----------------------------------------------------------------------------- words that follow the controls

  var STATE = /^irmeans_state/;

  function same(a, b) {
    if (typeof a === "number" && typeof b === "number") return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
    return a === b;
  }

  // Every item of every mark named irmeans_state..., in the scenegraph's order.
  function stateItems(node, out) {
    if (!node) return out;
    if (node.marktype && STATE.test(node.name || "")) (node.items || []).forEach(function (item) { out.push(item); });
    (node.items || []).forEach(function (child) { if (child && child.items) stateItems(child, out); });
    return out;
  }

  function itemText(item) {
    var text = item.description || item.text;
    if (Array.isArray(text)) text = text.join(" ");
    return text === undefined || text === null ? "" : String(text).trim();
  }

  // What the figure shows at the controls' setting, in words.
  function stateNow(view, spec) {
    var stored = (spec.usermeta || {}).irmeans_states;
    if (stored) {
      var values = stored.controls.map(function (name) { return view.signal(name); });
      for (var r = 0; r < stored.rows.length; r++) {
        var row = stored.rows[r];
        if (values.every(function (v, i) { return same(v, row[i]); })) return row[row.length - 1];
      }
      return "";
    }
    var parts = [];
    (spec.params || []).forEach(function (p) {
      if (STATE.test(p.name) && p.expr) parts.push(String(view.signal(p.name)).trim());
    });
    stateItems(view.scenegraph().root, []).forEach(function (item) { parts.push(itemText(item)); });
    var text = parts.filter(Boolean).join("; ");
    return text && !/[.!?]$/.test(text) ? text + "." : text;
  }

  // A text box whose entries are not all scores is marked aria-invalid (the state marks say which).
  function markInvalid(el, view) {
    stateItems(view.scenegraph().root, []).forEach(function (item) {
      var datum = item.datum || {};
      if (!datum.irmeans_input) return;
      el.querySelectorAll(".vega-bindings input[name='" + datum.irmeans_input + "']").forEach(function (input) {
        input.setAttribute("aria-invalid", datum.irmeans_invalid ? "true" : "false");
      });
    });
  }

  // The live region under the figure, made once: what a change of its controls did is said there.
  function liveRegion(el) {
    var id = el.id + "-now";
    var region = document.getElementById(id);
    if (!region) {
      region = document.createElement("p");
      region.id = id;
      region.className = "irmeans-now";
      region.setAttribute("role", "status");
      region.setAttribute("aria-live", "polite");
      el.insertAdjacentElement("afterend", region);
    }
    return region;
  }

  function describe(el, view, spec) {
    var meta = spec.usermeta || {};
    var state = stateNow(view, spec);
    var label = [meta.irmeans_overview || spec.description, state].filter(Boolean).join(" ");
    el.setAttribute("aria-label", label);
    var svg = el.querySelector("svg");
    if (svg) svg.setAttribute("aria-label", label);
    markInvalid(el, view);
    return state;
  }

  function words(el, result, spec) {
    var view = result.view;
    var region = liveRegion(el);
    var said = describe(el, view, spec);
    dataTables(el, view);
    var timer = null;
    // Vega calls a signal's listeners while its dataflow runs: the view is run again only after that (a run
    // asked for from inside one fails with "Dataflow already running").
    var changed = function () {
      setTimeout(function () {
        view.runAsync().then(function () { markInvalid(el, view); });
      }, 0);
      clearTimeout(timer);
      timer = setTimeout(function () {
        view.runAsync().then(function () {
          var state = describe(el, view, spec);
          if (state && state !== said) region.textContent = state;
          said = state;
          dataTables(el, view);
        });
      }, 250);
    };
    (spec.params || []).forEach(function (p) {
      if (p.bind) view.addSignalListener(p.name, changed);
    });
  }

  // ----------------------------------------------------------------------------- the data behind the tooltips

  // Every item with a tooltip, a table for each set of fields the tooltips show: [{keys, rows}], in the
  // scenegraph's order (the marks of a line per series, or of a facet per panel, make one table).
  function tooltipTables(root) {
    var byKeys = {};
    var order = [];
    (function walk(node) {
      if (!node) return;
      if (node.marktype && node.role === "mark") {
        (node.items || []).forEach(function (item) {
          if (!item.tooltip || typeof item.tooltip !== "object") return;
          var keys = Object.keys(item.tooltip);
          var key = keys.join("\u0000");
          if (!byKeys[key]) {
            byKeys[key] = { keys: keys, rows: [] };
            order.push(key);
          }
          byKeys[key].rows.push(keys.map(function (k) { return item.tooltip[k]; }));
        });
      }
      (node.items || []).forEach(function (child) { if (child && child.items) walk(child); });
    })(root);
    return order.map(function (key) { return byKeys[key]; });
  }

  function figureName(el) {
    var figure = el.closest("figure");
    var number = figure && figure.querySelector(".caption-number");
    return number ? number.textContent.replace(/\s+/g, " ").trim().replace(/\.$/, "") : "the figure";
  }

  // A toggle under the figure, "Show the data of Fig. 4.1", and the tables of its tooltips' values as shown now.
  function dataTables(el, view) {
    var tables = tooltipTables(view.scenegraph().root);
    var id = el.id + "-data";
    var holder = document.getElementById(id);
    if (!tables.length) {
      if (holder) holder.remove();
      return;
    }
    if (!holder) {
      holder = document.createElement("details");
      holder.id = id;
      holder.className = "irmeans-data";
      holder.appendChild(document.createElement("summary"));
      holder.appendChild(document.createElement("div"));
      holder.addEventListener("toggle", function () {
        nameDataToggle(holder, el);
        if (holder.open) fillTables(holder, tooltipTables(figures[el.id].view.scenegraph().root), el);
      });
      var after = document.getElementById(el.id + "-now") || el;
      after.insertAdjacentElement("afterend", holder);
    }
    nameDataToggle(holder, el);
    if (holder.open) fillTables(holder, tables, el);
  }

  // The toggle says what it shows, and whether it shows or hides it: "Show the data of Fig. 4.1".
  function nameDataToggle(holder, el) {
    holder.querySelector("summary").textContent = (holder.open ? "Hide" : "Show") + " the data of " + figureName(el);
  }

  // A figure is drawn as soon as its script is read, before its caption: the toggles learn their figure's number
  // once the page is read.
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("details.irmeans-data").forEach(function (holder) {
      var el = document.getElementById(holder.id.replace(/-data$/, ""));
      if (el) nameDataToggle(holder, el);
    });
  });

  function fillTables(holder, tables, el) {
    var box = holder.querySelector("div");
    box.textContent = "";
    tables.forEach(function (t, k) {
      var table = document.createElement("table");
      var caption = document.createElement("caption");
      caption.textContent =
        figureName(el) + (tables.length > 1 ? ", part " + (k + 1) + " of " + tables.length : "") + ": " + t.keys.join(", ");
      table.appendChild(caption);
      var head = table.createTHead().insertRow();
      t.keys.forEach(function (key) {
        var th = document.createElement("th");
        th.scope = "col";
        th.textContent = key;
        head.appendChild(th);
      });
      var body = table.createTBody();
      t.rows.forEach(function (values) {
        var tr = body.insertRow();
        values.forEach(function (v) { tr.insertCell().textContent = v === undefined || v === null ? "" : String(v); });
      });
      box.appendChild(table);
    });
  }

  // Draw a figure; log a failure as a console error.
  window.irmeansDraw = function (id, spec) {
    return fit(id, spec).catch(function (e) {
      console.error(e);
    });
  };

  // Draw every figure again, fitted to its column as it is now (make pdf calls it once the page is laid out
  // for paper); resolves when all are drawn.
  window.irmeansRefit = function () {
    return Promise.all(
      Object.keys(drawn).map(function (id) {
        return window.irmeansDraw(id, drawn[id].spec);
      })
    );
  };

  // Draw each figure again when its column's width changes (a phone turned, a window resized).
  var timer = null;
  window.addEventListener("resize", function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      Object.keys(drawn).forEach(function (id) {
        var el = document.getElementById(id);
        if (el && Math.abs(columnWidth(el) - drawn[id].width) > 1) window.irmeansDraw(id, drawn[id].spec);
      });
    }, 150);
  });
})();
