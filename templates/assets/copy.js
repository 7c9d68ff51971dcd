// Copy buttons for blocks marked <pre data-copy="BibTeX"> (or "code"). The button is added here,
// so a page without JavaScript shows no dead button, only the text to select by hand. It goes
// into the room style.css keeps at the top of each block from the first paint, so that
// nothing on the page moves when it arrives.
(function () {
  "use strict";
  // The words are the page's, in the site's language (this script's data-* attributes).
  var words = (document.currentScript && document.currentScript.dataset) || {};

  function selectText(pre) {
    var range = document.createRange();
    range.selectNodeContents(pre.querySelector("code") || pre);  // not the button's words
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function copyText(pre) {
    var copy = pre.cloneNode(true);  // the code without its line numbers and the button
    var numbers = copy.querySelectorAll(".ln, .copy-bar");
    for (var n = 0; n < numbers.length; n++) { numbers[n].remove(); }
    var text = copy.textContent;
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    // Pages opened over plain http or from old browsers: the selection-based command.
    return new Promise(function (resolve, reject) {
      selectText(pre);
      var done = false;
      try { done = document.execCommand("copy"); } catch (e) { done = false; }
      if (done) { resolve(); } else { reject(new Error("copy refused")); }
    });
  }

  function addButton(pre) {
    var bar = document.createElement("span");  // inside <pre>: phrasing content
    bar.className = "copy-bar";
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copy-button";
    button.textContent = (words.labelCopy || "Copy {what}")
      .replace("{what}", pre.getAttribute("data-copy") || "text");
    var status = document.createElement("span");
    status.className = "copy-status";
    status.setAttribute("role", "status");  // read out by screen readers when it changes
    button.addEventListener("click", function () {
      copyText(pre).then(function () {
        status.textContent = words.labelCopied || "Copied";
      }, function () {
        selectText(pre);  // the text is selected: Ctrl+C or Cmd+C finishes the job
        status.textContent = words.labelSelected || "Selected: press Ctrl+C to copy";
      });
    });
    bar.appendChild(button);
    bar.appendChild(status);
    pre.insertBefore(bar, pre.firstChild);
  }

  var blocks = document.querySelectorAll("pre[data-copy]");
  for (var i = 0; i < blocks.length; i++) { addButton(blocks[i]); }
})();
