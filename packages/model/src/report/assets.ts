/**
 * The report's own style and scripts: plain files beside the pages, no framework, nothing fetched from anywhere
 * (the report works from a folder on disk, file://, and behind a share link's CSP, script-src 'self').
 */

export const REPORT_CSS = `:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff}
body{margin:0}
body.report{display:flex;flex-direction:column;height:100vh}
header{padding:.5rem 1rem;border-bottom:1px solid #d0d7de;background:#f6f8fa}
header h1{margin:0;font-size:1.25rem}
.brand{margin:0;font-size:.8rem;color:#57606a}
.layout{display:flex;flex:1;min-height:0}
nav{width:22rem;max-width:40%;overflow:auto;border-right:1px solid #d0d7de;padding:.5rem}
nav label{display:block;font-weight:600;margin-bottom:.25rem}
nav input{width:100%;box-sizing:border-box;padding:.3rem;font:inherit}
#results{list-style:none;padding:0;margin:.5rem 0;border-bottom:1px solid #d0d7de}
#results li{padding:.15rem 0}
.tree,.tree ul{list-style:none;padding-left:1rem;margin:0}
.tree{padding-left:0;margin-top:.5rem}
summary{cursor:pointer}
main{flex:1;min-width:0}
body.report main{display:flex}
iframe{border:0;flex:1;width:100%;height:100%}
body.page main{padding:1rem 1.5rem;max-width:80rem}
.kind,.type{color:#57606a;font-size:.85rem}
.kind{margin:0}
h1{margin:.2rem 0 1rem}
h2{font-size:1.1rem;margin-top:1.5rem}
h3{font-size:1rem}
.doc{white-space:pre-wrap}
table{border-collapse:collapse}
th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}
a{color:#0550ae}
.diagram{overflow:auto;border:1px solid #d0d7de}
.diagram svg{display:block}
.diagram a:focus{outline:2px solid #0550ae}
`;

/** index.html: the hash route picks the page of the content frame; the search filters the index as you type. */
export const REPORT_JS = `(function () {
  "use strict";
  var frame = document.getElementById("content");
  var ROUTE = /^#\\/(elements|relationships|views)\\/([^\\/]+)$/;
  function fileOf(id) {
    return id.replace(/[^A-Za-z0-9-]/g, function (c) { return "_" + c.charCodeAt(0).toString(16) + "_"; });
  }
  function target() {
    var m = ROUTE.exec(location.hash);
    if (!m) return "model.html";
    var id;
    try { id = decodeURIComponent(m[2]); } catch (e) { return "model.html"; }
    return m[1] + "/" + fileOf(id) + ".html";
  }
  function route() {
    var t = target();
    if (frame.getAttribute("src") !== t) frame.setAttribute("src", t);
  }
  window.addEventListener("hashchange", route);
  route();
  // A page in the frame tells where it is, so the address bar keeps a deep link to it.
  window.addEventListener("message", function (e) {
    if (e.source !== frame.contentWindow || typeof e.data !== "string" || !ROUTE.test(e.data)) return;
    if (location.hash !== e.data) history.replaceState(null, "", e.data);
  });
  var input = document.getElementById("search");
  var list = document.getElementById("results");
  var index = window.REPORT_INDEX || [];
  input.addEventListener("input", function () {
    var q = input.value.trim().toLowerCase();
    list.textContent = "";
    if (!q) { list.hidden = true; return; }
    var shown = 0;
    for (var i = 0; i < index.length && shown < 100; i++) {
      var item = index[i];
      if (item[2].toLowerCase().indexOf(q) < 0 && item[3].toLowerCase().indexOf(q) < 0) continue;
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = "#/" + item[1] + "/" + encodeURIComponent(item[0]);
      a.textContent = item[2] + " (" + item[3] + ")";
      li.appendChild(a);
      list.appendChild(li);
      shown++;
    }
    if (shown === 0) {
      var none = document.createElement("li");
      none.textContent = "No match";
      list.appendChild(none);
    }
    list.hidden = false;
  });
})();
`;

/** Every page: tells the report's frame (when it is in one) its deep link. */
export const REPORT_PAGE_JS = `(function () {
  var route = document.body.getAttribute("data-route");
  if (route && window.parent !== window) window.parent.postMessage(route, "*");
})();
`;
