(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('report-data').textContent);
  var F = D.frames, H = D.hands, wilds = {}, cur = 0, active = null;
  D.wilds.forEach(function (w) { wilds[w] = true; });
  var WINDS = ['东', '南', '西', '北'];
  var MELD = { chow: '吃 chow', pong: '碰 pong', kong_exposed: '直杠 kong', kong_added: '补杠 kong', kong_concealed: '暗杠 kong' };
  // the moment of play in words (the replay's phase names are not for players)
  var PHASE = { opening: 'the room opens', dealing: 'dealing', draw: 'next to draw', discard: 'next to discard',
    replacement: 'kong replacement', won: 'won', drawn: 'drawn (流局)', between_hands: 'between hands',
    closed: 'the game is over' };
  // Chinese runs are marked lang="zh-Hans", the rest of the page is English (lang="en")
  var HAN = /([\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+(?:[ ·/]+[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+)*)/;
  function words(node, text) {
    String(text).split(HAN).forEach(function (part, i) {
      if (!part) { return; }
      if (i % 2) {
        var z = document.createElement('span');
        z.setAttribute('lang', 'zh-Hans');
        z.textContent = part;
        node.appendChild(z);
      } else { node.appendChild(document.createTextNode(part)); }
    });
    return node;
  }
  var viewer = document.getElementById('viewer');
  if (!F.length) { return; }
  var slider = document.getElementById('slider');

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { words(e, text); }
    return e;
  }
  function tile(name, cls) {
    var s = el('span', 'tile' + (cls ? ' ' + cls : '') + (wilds[name] ? ' wild' : ''));
    s.setAttribute('data-tile', name);
    s.title = name + (wilds[name] ? ' (wild 鬼)' : '');
    s.innerHTML = '<svg viewBox="0 0 30 40"><use href="#t-' + name + '"></use></svg>';
    return s;
  }
  function split(str) { return str.match(/\*?[1-9][mpsz]/g) || []; }
  // a sentence with [5m] tokens drawn as tiles
  function sentence(node, text) {
    node.textContent = '';
    text.split(/\[([1-9][mpsz])\]/).forEach(function (part, i) {
      if (i % 2) { node.appendChild(tile(part)); } else { words(node, part); }
    });
  }
  function marksFor(fr, seat, zone) {
    var out = {};
    fr.marks.forEach(function (m) { if (m[0] === seat && m[1] === zone) { out[m[2]] = true; } });
    return out;
  }

  function render(i) {
    cur = Math.max(0, Math.min(F.length - 1, i));
    var fr = F[cur], bad = fr.findings.length > 0, markCls = bad ? 'bad' : 'moved';
    viewer.setAttribute('data-frame', String(cur));
    viewer.setAttribute('data-seq', String(fr.seq));
    slider.value = String(cur);
    document.getElementById('pos').textContent = 'event ' + (cur + 1) + ' / ' + F.length + ' · seq ' + fr.seq;
    var ev = document.getElementById('event');
    sentence(ev, fr.text);
    ev.className = 'event' + (bad ? ' bad' : '');
    ev.setAttribute('data-type', fr.type);
    var ff = document.getElementById('frame-findings');
    ff.textContent = '';
    fr.findings.forEach(function (n) {
      var f = D.findings[n], p = el('p', 'ff');
      var a = el('a', '', '⚠ ' + f.zh + ' ' + f.en + ' (' + f.code + ')');
      a.href = '#finding-' + n;
      p.appendChild(a);
      if (f.message && f.message !== f.rule) { words(p, ' — ' + f.message); }
      ff.appendChild(p);
    });
    var label = document.getElementById('hand-label'), phase = PHASE[fr.phase] || fr.phase.replace(/_/g, ' ');
    label.textContent = '';
    words(label, fr.hand ? 'Hand ' + fr.hand + ' · ' + phase : phase);
    var tail = document.getElementById('tail');
    tail.textContent = '';
    var tm = marksFor(fr, -1, 't');
    split(fr.tail).forEach(function (t, k) { tail.appendChild(tile(t, tm[k] ? markCls : '')); });
    if (!fr.tail) { tail.textContent = '—'; }
    document.getElementById('undrawn').textContent = fr.hand ? fr.undrawn + ' tiles undrawn' : '';
    var indBox = document.getElementById('ind-box'), ind = document.getElementById('ind');
    ind.textContent = '';
    indBox.hidden = !fr.ind;
    split(fr.ind || '').forEach(function (t) { ind.appendChild(tile(t, '')); });
    var body = document.getElementById('seats');
    body.textContent = '';
    var n = fr.players.length, badSeats = {};
    fr.findings.forEach(function (k) { var s = D.findings[k].seat; if (s !== null && s !== undefined) { badSeats[s] = true; } });
    for (var s = 0; s < n; s++) {
      var tr = el('tr');
      tr.setAttribute('data-seat', String(s));
      var live = fr.hand && ['draw', 'discard', 'replacement'].indexOf(fr.phase) >= 0;
      if (live && s === fr.turn) { tr.className = 'turn'; }
      if (bad && badSeats[s]) { tr.className += ' bad-seat'; }
      var who = el('td');
      who.appendChild(el('div', 'pname', fr.players[s]));
      var meta = (fr.hand ? WINDS[(s - fr.dealer + n) % n] + ' ' : '') + (s === fr.dealer && fr.hand ? '庄 ' : '') +
        'score ' + fr.scores[s] + (live && s === fr.turn ? ' · ▶ to play' : '');
      who.appendChild(el('div', 'pmeta', meta));
      tr.appendChild(who);
      var c = el('td', 'concealed'), cm = marksFor(fr, s, 'c');
      split(fr.c[s] || '').forEach(function (t, k) { c.appendChild(tile(t, cm[k] ? markCls : '')); });
      tr.appendChild(c);
      var m = el('td', 'melds'), mm = marksFor(fr, s, 'm');
      (fr.m[s] || []).forEach(function (meld, k) {
        var box = el('span', 'meld' + (mm[k] ? ' ' + markCls : ''));
        box.setAttribute('data-kind', meld[0]);
        split(meld[1]).forEach(function (t) { box.appendChild(tile(t)); });
        var label = MELD[meld[0]] || meld[0];
        if (meld[2] !== null && meld[2] !== undefined) { label += ' ← ' + fr.players[meld[2]]; }
        box.appendChild(el('span', 'kind', label));
        m.appendChild(box);
      });
      if (fr.aside && fr.aside[s]) {  // tiles set aside: 补花, 红中杠, 癞子杠
        var aside = el('span', 'meld');
        aside.setAttribute('data-kind', 'set_aside');
        split(fr.aside[s]).forEach(function (t) { aside.appendChild(tile(t)); });
        aside.appendChild(el('span', 'kind', '单张杠 / 补花 set aside'));
        m.appendChild(aside);
      }
      tr.appendChild(m);
      var r = el('td', 'river'), rm = marksFor(fr, s, 'r');
      split(fr.r[s] || '').forEach(function (t, k) {
        var claimed = t.charAt(0) === '*';
        r.appendChild(tile(claimed ? t.slice(1) : t, (claimed ? 'claimed ' : '') + (rm[k] ? markCls : '')));
      });
      tr.appendChild(r);
      body.appendChild(tr);
    }
    var tabs = document.querySelectorAll('.hand-tab');
    for (var k = 0; k < tabs.length; k++) {
      tabs[k].classList.toggle('current', Number(tabs[k].getAttribute('data-hand')) === fr.hand);
    }
  }

  function handIndex() {
    for (var k = H.length - 1; k >= 0; k--) { if (H[k].first <= cur) { return k; } }
    return -1;
  }
  function go(i) { render(i); }
  function showFinding(n) {
    var f = D.findings[n];
    if (active !== null) { document.getElementById('finding-' + active).classList.remove('active'); }
    active = n;
    document.getElementById('finding-' + n).classList.add('active');
    render(f.frame);
    viewer.scrollIntoView({ block: 'start' });
  }

  document.getElementById('first').addEventListener('click', function () { go(0); });
  document.getElementById('prev').addEventListener('click', function () { go(cur - 1); });
  document.getElementById('next').addEventListener('click', function () { go(cur + 1); });
  document.getElementById('last').addEventListener('click', function () { go(F.length - 1); });
  slider.addEventListener('input', function () { render(Number(slider.value)); });
  Array.prototype.forEach.call(document.querySelectorAll('button.goto'), function (b) {
    b.addEventListener('click', function () {
      var n = b.getAttribute('data-finding');
      if (n !== null) { showFinding(Number(n)); } else { render(Number(b.getAttribute('data-frame'))); viewer.scrollIntoView(); }
    });
  });
  Array.prototype.forEach.call(document.querySelectorAll('.hand-tab'), function (b) {
    b.addEventListener('click', function () { render(Number(b.getAttribute('data-frame'))); });
  });
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    if (e.target === slider && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) { return; } // the slider steps itself
    var k = handIndex();
    if (e.key === 'ArrowRight') { go(cur + 1); }
    else if (e.key === 'ArrowLeft') { go(cur - 1); }
    else if (e.key === 'ArrowDown' || e.key === 'PageDown') { if (k + 1 < H.length) { go(H[k + 1].first); } else { go(F.length - 1); } }
    else if (e.key === 'ArrowUp' || e.key === 'PageUp') {
      if (k >= 0 && cur > H[k].first) { go(H[k].first); } else if (k > 0) { go(H[k - 1].first); } else { go(0); }
    }
    else if (e.key === 'Home') { go(0); }
    else if (e.key === 'End') { go(F.length - 1); }
    else { return; }
    e.preventDefault();
  });
  var m = /^#seq=(\d+)$/.exec(window.location.hash);
  var start = 0;
  if (m) { for (var i = 0; i < F.length; i++) { if (F[i].seq <= Number(m[1])) { start = i; } } }
  render(start);
}());
