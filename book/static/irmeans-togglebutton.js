// A folded admonition (an exercise's solution) opens when its title is clicked anywhere but on a link.
//
// sphinx-togglebutton 0.4.5 makes the whole title of a folded admonition its button, with a click
// handler that finds the button from what was clicked: the title itself, the chevron or its parts.
// A click on anything else in the title (the link "Exercise 4.1" of "Solution to Exercise 4.1", a
// word of maths) found no button and threw "ReferenceError: button is not defined", and the solution
// stayed folded. This handler, loaded after togglebutton.js and before the page's items are set up
// (on DOMContentLoaded, which togglebutton.js waits for), takes its place: a link in the title goes
// where it points and leaves the solution as it is; a click anywhere else opens or folds it.
(function () {
  "use strict";
  if (typeof toggleHidden !== "function") return; // sphinx-togglebutton is not on the page

  // eslint-disable-next-line no-global-assign
  toggleClickHandler = function (click) {
    var target = click.target instanceof Element ? click.target : click.target.parentElement;
    if (target && target.closest("a[href]")) return; // the link's own job: go to the exercise
    // The listener sits on the title (data-button names its button) or on the button itself.
    var holder = click.currentTarget;
    var button = holder && holder.dataset && holder.dataset.button
      ? document.getElementById(holder.dataset.button)
      : target && target.closest(".toggle-button");
    if (button) toggleHidden(button);
  };
})();
