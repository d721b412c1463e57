(function () {
  'use strict';
  var room = document.getElementById('room');

  // ---- Live updates change only what changed (issue 43: a half-filled form was wiped, its focus lost). The new page
  // is laid over the one shown node by node: an element is kept and its attributes and children brought up to date,
  // so a field being filled keeps its value (a browser keeps what was typed once the value attribute changes), its
  // focus and the page its scroll; only what the new page lacks goes, and only what it adds is made.
  function keyOf(node) {
    if (node.nodeType !== 1) return null;
    if (node.id) return '#' + node.id;
    var name = node.getAttribute('name');
    if (!name) return null;
    // Buttons of one name (Agree, Refuse) differ by value; a field is the same field whatever it holds.
    return node.tagName + '@' + name + (node.tagName === 'BUTTON' ? '@' + (node.getAttribute('value') || '') : '');
  }
  function sameKind(a, b) { return a.nodeType === b.nodeType && a.nodeName === b.nodeName; }
  function morphAttributes(old, fresh) {
    for (var i = old.attributes.length - 1; i >= 0; i--) {
      var name = old.attributes[i].name;
      if (!fresh.hasAttribute(name) && !(name === 'open' && old.tagName === 'DETAILS')) old.removeAttribute(name);
    }
    for (var j = 0; j < fresh.attributes.length; j++) {
      var a = fresh.attributes[j];
      if (a.name === 'open' && old.tagName === 'DETAILS') continue;  // opened or closed by the player
      if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
    }
  }
  function morph(old, fresh) {
    if (old.hasAttribute('data-keep')) {  // the board (fetched apart: board() below) and what the player opened on it
      if (fresh.hasAttribute('data-board')) old.setAttribute('data-board', fresh.getAttribute('data-board'));
      return;
    }
    morphAttributes(old, fresh);
    morphChildren(old, fresh);
  }
  function morphChildren(old, fresh) {
    var olds = Array.prototype.slice.call(old.childNodes), byKey = {}, used = new Set(), cursor = 0, result = [];
    olds.forEach(function (n) { var k = keyOf(n); if (k && !byKey[k]) byKey[k] = n; });
    Array.prototype.forEach.call(fresh.childNodes, function (f) {
      var k = keyOf(f), match = null;
      if (k) {
        if (byKey[k] && !used.has(byKey[k]) && sameKind(byKey[k], f)) match = byKey[k];
      } else {
        while (cursor < olds.length && (used.has(olds[cursor]) || keyOf(olds[cursor]))) cursor++;
        if (cursor < olds.length && sameKind(olds[cursor], f)) match = olds[cursor++];
      }
      if (match) {
        used.add(match);
        if (match.nodeType === 1) morph(match, f);
        else if (match.nodeValue !== f.nodeValue) match.nodeValue = f.nodeValue;
        result.push(match);
      } else {
        result.push(document.importNode(f, true));
      }
    });
    olds.forEach(function (n) { if (!used.has(n)) n.remove(); });
    result.forEach(function (n, i) { if (old.childNodes[i] !== n) old.insertBefore(n, old.childNodes[i] || null); });
  }

  // ---- The page's address: the room's, with the option in hand; never the confirmation's (?done=), never a POST's.
  function address(url) {
    var parsed = new URL(url, location.href);
    if (room && parsed.pathname !== room.getAttribute('data-page')) parsed = new URL(room.getAttribute('data-page') + parsed.search, location.href);
    parsed.searchParams.delete('done');
    return parsed.pathname + parsed.search;
  }
  function show(html, url, keepNote) {
    var doc = new DOMParser().parseFromString(html, 'text/html');
    var fresh = doc.getElementById('room');
    if (!fresh || !room) { banner(doc.body ? doc.body.textContent.trim() : 'The server answered with nothing.', 'refused'); return false; }
    var note = document.getElementById('note');
    if (keepNote && note && !doc.getElementById('note')) {
      // The confirmation of this page's own action stays until its next one (a live update does not take it away).
      var before = note.previousElementSibling && note.previousElementSibling.id ? doc.getElementById(note.previousElementSibling.id) : null;
      var controls = doc.getElementById('controls');
      if (before) before.after(doc.importNode(note, true)); else if (controls) controls.prepend(doc.importNode(note, true));
    }
    var boardWas = room.querySelector('#board .map') ? room.querySelector('#board .map').getAttribute('data-board') : null;
    morph(room, fresh);
    document.title = doc.title;
    if (url) history.replaceState(null, '', address(url));
    var map = room.querySelector('#board .map');
    if (map && map.getAttribute('data-board') !== boardWas) board();
    afterUpdate();
    return true;
  }

  // ---- The connection: a banner says when the live stream is down or the server cannot be reached.
  function banner(text, kind) {
    var shown = document.getElementById('connection');
    if (!shown) return;
    shown.textContent = text || '';
    shown.className = kind || '';
    shown.hidden = !text;
  }

  // ---- Actions are sent by the script with a key of their own (see web/actions.py): the page that sent one shows
  // its confirmation; sent again after an outage, it is applied once. A form sent while the server is down waits
  // on this page (nothing typed is lost) and goes again until the server answers.
  var sending = false, refreshWanted = false, latest = room ? room.getAttribute('data-seq') : null;  // the room's step as last heard
  function key() {
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
  }
  function send(url, init, attempt) {
    sending = true;
    fetch(url, init).then(function (r) {
      return r.text().then(function (html) {
        sending = false;
        banner('');
        show(html, r.redirected || init.method === 'GET' ? r.url : null, false);
        if (refreshWanted && room.getAttribute('data-seq') !== latest) refresh();
      });
    }).catch(function () {
      var wait = Math.min(10, 1 + attempt * 2);
      banner('The server cannot be reached. What you sent is kept and sent again in ' + wait + ' s (applied once).', 'down');
      setTimeout(function () { send(url, init, attempt + 1); }, wait * 1000);
    });
  }
  document.addEventListener('submit', function (e) {
    var form = e.target, button = e.submitter;
    if (!room || !room.contains(form) || !window.fetch || !window.URLSearchParams) return;  // a plain form: the browser sends it
    e.preventDefault();
    if (sending) return;  // a second tap while the first is on its way sends nothing
    var method = (button && button.getAttribute('formmethod')) || form.getAttribute('method') || 'get';
    var target = (button && button.getAttribute('formaction')) || form.getAttribute('action') || location.pathname;
    var keyField = form.querySelector('input[name=action_key]');
    if (keyField && !keyField.value) keyField.value = key();
    var data = new URLSearchParams(new FormData(form, button));
    if (button) button.disabled = true;
    var said = document.getElementById('note');
    if (said) said.remove();  // the confirmation of the page's previous action: this one gets its own
    if (method.toLowerCase() === 'post') {
      // Any other answer (an undo's, say) comes back to the option in hand, its form as it was left.
      var option = new URLSearchParams(location.search).get('option');
      if (option && form.id !== 'pick-form') target += '?option=' + encodeURIComponent(option);
      send(target, {method: 'POST', body: data, headers: {'Content-Type': 'application/x-www-form-urlencoded'}}, 0);
    } else {
      send(target + '?' + data.toString(), {method: 'GET', cache: 'no-store'}, 0);
    }
  });

  // ---- What the room did since: the room's step comes by server-sent events; the page is then fetched and laid over.
  function refresh() {
    if (!room) return;
    if (sending) { refreshWanted = true; return; }
    refreshWanted = false;
    fetch(address(location.href), {cache: 'no-store'}).then(function (r) { return r.text(); }).then(function (html) {
      if (!sending) show(html, null, true);
    }).catch(function () { banner('The server cannot be reached: the page follows the room again once it is back.', 'down'); });
  }

  // ---- Your move: in the tab's title (set by the server), and as a notification if the player asked for one.
  var wasMine = null;
  function afterUpdate() {
    budget();
    presence();  // the room moved: whoever moved it is here
    var mine = !!(room && room.getAttribute('data-your-move') === 'yes');
    if (mine && wasMine === false && document.hidden && window.Notification && Notification.permission === 'granted') {
      new Notification(document.title);
    }
    wasMine = mine;
    var ask = document.getElementById('notify');
    if (ask) ask.hidden = !window.Notification || Notification.permission !== 'default';
  }
  document.addEventListener('click', function (e) {
    if (e.target.id === 'notify' && window.Notification) Notification.requestPermission().then(afterUpdate);
  });

  // ---- The bid's running budget: the rows with a place and the bid phase's shares, as the server counts them, against the amount.
  function budget() {
    document.querySelectorAll('form[data-costs]').forEach(function (form) {
      var costs = JSON.parse(form.getAttribute('data-costs') || '{}'), spent = 0;
      form.querySelectorAll('.bid-rows tbody tr').forEach(function (row) {
        var power = row.querySelector('select[name^="power."]').value, unit = row.querySelector('select[name^="unit."]').value;
        var count = parseInt(row.querySelector('input[name^="count."]').value || '1', 10) || 0;
        var placed = row.querySelector('input[name^="at."]').value.trim() !== '';
        var cost = ((costs[power] || {})[unit] || 0) * count;
        row.querySelector('.row-cost').textContent = placed ? String(cost) : '';
        if (placed) spent += cost;
      });
      form.querySelectorAll('input[name^="phase."]').forEach(function (share) {  // left to TripleA's bid phase: spent too
        spent += Math.max(0, parseInt(share.value || '0', 10) || 0);
      });
      var amount = parseInt(form.querySelector('[name=amount]').value || '0', 10) || 0;
      var shown = form.querySelector('.budget');
      shown.textContent = spent + ' of ' + Math.abs(amount) + ' PUs ' + (amount < 0 ? 'removed' : 'spent') + '.';
      shown.classList.toggle('over', spent > Math.abs(amount));
    });
  }
  document.addEventListener('input', budget);
  document.addEventListener('change', budget);

  // ---- The board: zoomed and panned (buttons, wheel, a drag, two fingers); the view survives a new board.
  var view = null;  // {x, y, w, h}: the part of the map shown, in the map's units
  function svg() { return document.querySelector('#board .map svg'); }
  function full() { var s = svg(); return s ? s.viewBox.baseVal : null; }
  function setView(v) {
    var s = svg(), f = full();
    if (!s || !f) return;
    v.w = Math.min(f.width, Math.max(f.width / 40, v.w));
    v.h = v.w * s.clientHeight / Math.max(1, s.clientWidth);
    v.x = Math.min(f.x + f.width - v.w, Math.max(f.x, v.x));
    v.y = Math.min(f.y + f.height - Math.min(v.h, f.height), Math.max(f.y, v.y));
    view = v;
    s.setAttribute('viewBox', [v.x, v.y, v.w, v.h].map(function (n) { return Math.round(n); }).join(' '));
    var scale = s.clientWidth / v.w;  // screen pixels per map unit
    s.classList.toggle('names-readable', scale >= 0.55);
    var level = document.getElementById('zoom-level');
    if (level) level.textContent = Math.round(scale * 100) + '%';
  }
  function zoomBy(factor, cx, cy) {
    var v = view || initialView();
    if (!v) return;
    cx = cx === undefined ? v.x + v.w / 2 : cx;
    cy = cy === undefined ? v.y + v.h / 2 : cy;
    var w = v.w / factor;
    setView({x: cx - (cx - v.x) * (w / v.w), y: cy - (cy - v.y) * (w / v.w), w: w});
  }
  function initialView() {
    var s = svg(), f = full();
    if (!s || !f) return null;
    // On a phone the whole map is a few hundred pixels wide and its names unreadable: start where they read.
    var w = s.clientWidth < 600 ? Math.min(f.width, s.clientWidth / 0.7) : f.width;
    return {x: f.x + (f.width - w) / 2, y: f.y, w: w};
  }
  function mapPoint(s, clientX, clientY) {
    var r = s.getBoundingClientRect(), v = view;
    return [v.x + (clientX - r.left) / r.width * v.w, v.y + (clientY - r.top) / r.height * v.h];
  }
  document.addEventListener('click', function (e) {
    var t = e.target.closest && e.target.closest('[data-zoom]');
    if (!t) return;
    var how = t.getAttribute('data-zoom');
    if (how === 'fit') { var f = full(); if (f) setView({x: f.x, y: f.y, w: f.width}); } else zoomBy(how === 'in' ? 1.5 : 1 / 1.5);
  });
  var pointers = {}, dragged = 0, pinch = null;
  document.addEventListener('wheel', function (e) {
    var s = e.target.closest && e.target.closest('#board .map svg');
    if (!s || !view || !e.ctrlKey && !e.altKey && Math.abs(e.deltaY) < 1) return;
    e.preventDefault();
    var p = mapPoint(s, e.clientX, e.clientY);
    zoomBy(e.deltaY < 0 ? 1.2 : 1 / 1.2, p[0], p[1]);
  }, {passive: false});
  document.addEventListener('pointerdown', function (e) {
    var s = e.target.closest && e.target.closest('#board .map svg');
    if (!s || !view) return;
    pointers[e.pointerId] = [e.clientX, e.clientY];
    dragged = 0;
    var ids = Object.keys(pointers);
    if (ids.length === 2) {
      var a = pointers[ids[0]], b = pointers[ids[1]];
      pinch = {d: Math.hypot(a[0] - b[0], a[1] - b[1]), w: view.w};
    }
  });
  document.addEventListener('pointermove', function (e) {
    var last = pointers[e.pointerId], s = svg();
    if (!last || !s || !view) return;
    pointers[e.pointerId] = [e.clientX, e.clientY];
    var ids = Object.keys(pointers);
    if (ids.length === 2 && pinch) {
      var a = pointers[ids[0]], b = pointers[ids[1]], d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      var mid = mapPoint(s, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
      zoomBy(view.w / (pinch.w * pinch.d / Math.max(1, d)), mid[0], mid[1]);
      dragged += 10;
      return;
    }
    var per = view.w / s.getBoundingClientRect().width, dx = e.clientX - last[0], dy = e.clientY - last[1];
    dragged += Math.abs(dx) + Math.abs(dy);
    setView({x: view.x - dx * per, y: view.y - dy * per, w: view.w});
  });
  function lift(e) { delete pointers[e.pointerId]; if (Object.keys(pointers).length < 2) pinch = null; }
  document.addEventListener('pointerup', lift);
  document.addEventListener('pointercancel', lift);

  // ---- A tap on a place shows it (owner, units, value, lock) and offers the fields of the form in hand whose legal
  // choices hold it; a field is filled only when the player taps one of those offers (never silently).
  function placesInfo() {
    var found = document.getElementById('places');
    return found ? JSON.parse(found.textContent) : {};
  }
  function offers(place) {
    var out = [];
    document.querySelectorAll('#controls input.target[list], #controls select.target').forEach(function (field) {
      var list = field.tagName === 'SELECT' ? field : document.getElementById(field.getAttribute('list'));
      if (!list) return;
      var legal = Array.prototype.some.call(list.options, function (o) { return o.value === place; });
      if (legal) out.push(field);
    });
    return out;
  }
  function spoken(field) {
    return field.getAttribute('aria-label') || (field.labels && field.labels[0] ? field.labels[0].textContent.trim() : field.name);
  }
  function inspect(place) {
    var panel = document.getElementById('place-panel');
    if (!panel) return;
    var info = placesInfo()[place] || {};
    panel.replaceChildren();
    var head = document.createElement('h3');
    head.textContent = place;
    panel.appendChild(head);
    (info.lines || []).forEach(function (line) { var p = document.createElement('p'); p.textContent = line; panel.appendChild(p); });
    var fields = offers(place);
    if (fields.length) {
      var p = document.createElement('p');
      p.textContent = 'Use it for:';
      panel.appendChild(p);
      fields.forEach(function (field) {
        var b = document.createElement('button');
        b.type = 'button';
        b.className = 'use-place';
        b.setAttribute('data-field', field.name);
        b.textContent = spoken(field) + (field.value ? ' (now ' + field.value + ')' : '');
        b.addEventListener('click', function () {
          field.value = place;
          field.dispatchEvent(new Event('input', {bubbles: true}));
          field.dispatchEvent(new Event('change', {bubbles: true}));
          panel.querySelector('.done') || panel.appendChild(Object.assign(document.createElement('p'), {className: 'done'}));
          panel.querySelector('.done').textContent = spoken(field) + ': ' + place + '.';
          b.textContent = spoken(field) + ' (now ' + place + ')';  // the board stays in sight for the next tap
        });
        panel.appendChild(b);
      });
    } else if (document.querySelector('#controls input.target')) {
      var none = document.createElement('p');
      none.textContent = 'No field of the form in hand takes ' + place + '.';
      panel.appendChild(none);
    }
    panel.hidden = false;
    document.querySelectorAll('#board .map svg path.inspected').forEach(function (p) { p.classList.remove('inspected'); });
    document.querySelectorAll('#board .map svg #territories path').forEach(function (p) { if (p.getAttribute('data-name') === place) p.classList.add('inspected'); });
  }
  document.addEventListener('click', function (e) {
    var path = e.target.closest && e.target.closest('#board [data-name]');
    if (!path || dragged > 8) return;
    inspect(path.getAttribute('data-name'));
  });

  // ---- The board comes apart from the page (drawn once a step for everyone): the board shown so far stays until
  // the new one is in, and the new one is shown as the old one was (zoom, pan).
  function board() {
    var map = document.querySelector('#board .map');
    if (!map) return;
    var wanted = map.getAttribute('data-board');
    fetch(wanted, {cache: 'no-store'}).then(function (r) { return r.text(); }).then(function (drawn) {
      if (!map.isConnected || map.getAttribute('data-board') !== wanted) return;  // a newer board is on its way
      var kept = view;
      map.innerHTML = drawn;
      var s = svg();
      if (!s) return;
      s.setAttribute('role', 'img');
      setView(kept || initialView());
    });
  }
  window.addEventListener('resize', function () { if (view) setView(view); });

  // ---- Whether the other side has the room open: this page says it is here, and is told of the others.
  function presence() {
    var shown = document.getElementById('presence');
    if (!shown || document.hidden) return;
    fetch(shown.getAttribute('data-presence'), {cache: 'no-store'}).then(function (r) { return r.ok ? r.text() : ''; })
      .then(function (text) { shown.textContent = text; }).catch(function () {});
  }

  budget();
  board();
  afterUpdate();
  if (!room) return;
  presence();
  setInterval(presence, 15000);
  document.addEventListener('visibilitychange', presence);
  history.replaceState(null, '', address(location.href));
  if (!window.EventSource) return;
  var source = new EventSource(room.getAttribute('data-events'));
  source.onopen = function () { banner(''); };
  source.onerror = function () {
    if (source.readyState === EventSource.CLOSED) {
      banner('The live connection was refused: this page no longer follows the room. Reload it to try again.', 'down');
    } else {
      banner('Reconnecting: the live connection to the room dropped…', 'down');
    }
  };
  source.onmessage = function (e) {
    banner('');
    latest = e.data;
    if (e.data !== room.getAttribute('data-seq')) refresh();
  };
})();
