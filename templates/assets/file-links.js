/* Opened from disk (file://), a link to a folder such as "publications/" shows a folder
   listing instead of its page: point such links at the folder's index.html. On the web this
   does nothing, so pretty URLs stay as they are, and without JavaScript every page still
   reads and links as usual. */
(function () {
  "use strict";
  if (location.protocol !== "file:") return;
  var links = document.querySelectorAll("a[href]");
  for (var i = 0; i < links.length; i++) {
    var link = links[i];
    if (link.protocol === "file:" && link.pathname.slice(-1) === "/") {
      link.pathname += "index.html";
    }
  }
})();
