// The pages' little script. Every page works without it; it adds the
// viewer's time zone (a cookie the server reads), the game stepper and the
// matchmaking wait.
(function () {
  "use strict";
  try {
    var tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (tz && document.cookie.indexOf("rank_tz=" + tz) < 0) {
      document.cookie = "rank_tz=" + encodeURIComponent(tz) + "; path=/; max-age=31536000; samesite=lax";
    }
  } catch (e) { /* no Intl: UTC */ }

  function stepper(root) {
    var frames = JSON.parse(root.getAttribute("data-frames"));
    var svg = root.querySelector("svg.board");
    var label = root.querySelector("[data-move]");
    var capB = root.querySelector("[data-cap-b]"), capW = root.querySelector("[data-cap-w]");
    var size = frames.size, cell = frames.cell, pad = frames.pad;
    var stones = {};
    var at = frames.moves.length;
    function key(x, y) { return x + "," + y; }
    function draw(n) {
      // The position after move n, rebuilt from the setup.
      var pos = {};
      frames.setup.forEach(function (s) { pos[key(s[0], s[1])] = s[2]; });
      var cb = 0, cw = 0;
      for (var i = 0; i < n; i++) {
        var m = frames.moves[i];
        if (m.x >= 0) { pos[key(m.x, m.y)] = m.c; }
        (m.cap || []).forEach(function (p) { delete pos[key(p[0], p[1])]; });
        if (m.c === "b") { cb += (m.cap || []).length; } else { cw += (m.cap || []).length; }
      }
      svg.querySelectorAll(".stone,.last,.dead").forEach(function (e) { e.remove(); });
      var ns = "http://www.w3.org/2000/svg";
      Object.keys(pos).forEach(function (k) {
        var xy = k.split(","), c = document.createElementNS(ns, "circle");
        c.setAttribute("cx", pad + xy[0] * cell); c.setAttribute("cy", pad + xy[1] * cell);
        c.setAttribute("r", cell * 0.46); c.setAttribute("class", "stone");
        c.setAttribute("fill", pos[k] === "b" ? "#111" : "#fafafa"); c.setAttribute("stroke", "#111");
        svg.appendChild(c);
      });
      if (n > 0 && frames.moves[n - 1].x >= 0) {
        var lm = frames.moves[n - 1], d = document.createElementNS(ns, "circle");
        d.setAttribute("cx", pad + lm.x * cell); d.setAttribute("cy", pad + lm.y * cell);
        d.setAttribute("r", cell * 0.2); d.setAttribute("class", "last"); d.setAttribute("fill", "none");
        d.setAttribute("stroke", lm.c === "b" ? "#fafafa" : "#111"); d.setAttribute("stroke-width", 2);
        svg.appendChild(d);
      }
      if (n === frames.moves.length) {
        frames.dead.forEach(function (p) {
          var x = document.createElementNS(ns, "rect");
          x.setAttribute("x", pad + p[0] * cell - cell * 0.2); x.setAttribute("y", pad + p[1] * cell - cell * 0.2);
          x.setAttribute("width", cell * 0.4); x.setAttribute("height", cell * 0.4);
          x.setAttribute("class", "dead"); x.setAttribute("fill", "#c0392b");
          svg.appendChild(x);
        });
      }
      label.textContent = n + " / " + frames.moves.length;
      capB.textContent = cb; capW.textContent = cw;
      at = n;
    }
    function go(n) { draw(Math.max(0, Math.min(frames.moves.length, n))); }
    root.querySelectorAll("[data-step]").forEach(function (b) {
      b.addEventListener("click", function (ev) {
        ev.preventDefault();
        var s = b.getAttribute("data-step");
        if (s === "first") { go(0); } else if (s === "last") { go(frames.moves.length); } else { go(at + parseInt(s, 10)); }
      });
    });
    document.addEventListener("keydown", function (ev) {
      if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) { return; }
      if (ev.key === "ArrowLeft") { go(at - 1); ev.preventDefault(); }
      if (ev.key === "ArrowRight") { go(at + 1); ev.preventDefault(); }
      if (ev.key === "Home") { go(0); ev.preventDefault(); }
      if (ev.key === "End") { go(frames.moves.length); ev.preventDefault(); }
    });
    root.setAttribute("data-ready", "1");
  }
  function waiting(root) {
    var url = root.getAttribute("data-poll");
    var waited = root.querySelector("[data-waited]"), win = root.querySelector("[data-window]");
    var state = root.querySelector("[data-state]");
    function poll() {
      fetch(url, { headers: { "Accept": "application/json" }, credentials: "same-origin" })
        .then(function (r) { return r.json(); })
        .then(function (t) {
          if (t.game_url) { window.location.assign(t.game_url); return; }
          waited.textContent = t.waited; win.textContent = t.window; state.textContent = t.state_text;
          if (t.state === "waiting") { setTimeout(poll, 1000); }
        })
        .catch(function () { setTimeout(poll, 3000); });
    }
    setTimeout(poll, 500);
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-stepper]").forEach(stepper);
    document.querySelectorAll("[data-poll]").forEach(waiting);
  });
})();
