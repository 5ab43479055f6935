// Reverie console. Every piece of stored text is user-controlled: it is only ever set with
// textContent (or as an input's value), never parsed as HTML. The token lives in this closure only.
(function () {
  'use strict';
  let token = null;
  let current = null; // { tenant, agent, user }

  const $ = (id) => document.getElementById(id);

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }

  function button(label, onClick) {
    const b = el('button', label);
    b.type = 'button';
    b.addEventListener('click', onClick);
    return b;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function status(text, isError) {
    const s = $('status');
    s.textContent = text || '';
    s.className = isError ? 'error' : 'muted';
  }

  function scopeParam() {
    return encodeURIComponent(current.tenant + '/' + current.agent + '/' + current.user);
  }

  async function api(method, path, body) {
    const init = { method, headers: { 'Authorization': 'Bearer ' + token }, cache: 'no-store', credentials: 'omit' };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const r = await fetch('/api/' + path, init);
    const data = await r.json().catch(() => ({ error: 'HTTP ' + r.status }));
    if (!r.ok) throw new Error(data && data.error ? data.error : 'HTTP ' + r.status);
    return data;
  }

  function table(columns, rows, actions) {
    if (!rows.length) return el('p', '(none)', 'muted');
    const t = el('table');
    const head = el('tr');
    columns.forEach((c) => head.appendChild(el('th', c[0])));
    if (actions) head.appendChild(el('th', ''));
    t.appendChild(head);
    rows.forEach((row) => {
      const tr = el('tr');
      columns.forEach((c) => {
        const v = c[1](row);
        tr.appendChild(el('td', v === null || v === undefined ? '' : v, c[2]));
      });
      if (actions) {
        const td = el('td');
        actions(row).forEach((b) => { td.appendChild(b); td.appendChild(document.createTextNode(' ')); });
        tr.appendChild(td);
      }
      t.appendChild(tr);
    });
    return t;
  }

  function when(iso) { return iso ? String(iso).replace('T', ' ').replace(/\.\d+Z$/, 'Z') : ''; }

  // ------------------------------------------------------------------ login

  $('login-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    token = $('token').value.trim();
    $('token').value = '';
    try {
      await api('GET', 'health');
      $('login').classList.add('hidden');
      $('app').classList.remove('hidden');
      loadHealth();
    } catch (err) {
      token = null;
      $('login-error').textContent = err.message;
    }
  });

  // A link may carry #token=...&tenant=...&agent=...&user=... (the fragment never reaches the server);
  // it is read once and removed from the address bar and the history entry at once.
  async function fromFragment() {
    if (!location.hash || location.hash.length < 2) return;
    const params = new URLSearchParams(location.hash.slice(1));
    history.replaceState(null, '', location.pathname);
    if (params.get('tenant')) $('tenant').value = params.get('tenant');
    if (params.get('agent')) $('agent').value = params.get('agent');
    if (!params.get('token')) return;
    token = params.get('token');
    try {
      await api('GET', 'health');
    } catch (err) {
      token = null;
      $('login-error').textContent = err.message;
      return;
    }
    $('login').classList.add('hidden');
    $('app').classList.remove('hidden');
    loadHealth();
    if (params.get('tenant') && params.get('agent')) {
      await loadUsers();
      if (params.get('user')) await openUser(params.get('tenant'), params.get('agent'), params.get('user'));
    }
  }

  // ------------------------------------------------------------------ users

  $('agent-form').addEventListener('submit', (e) => { e.preventDefault(); loadUsers(); });

  async function loadUsers() {
    const tenant = $('tenant').value.trim();
    const agent = $('agent').value.trim();
    const box = $('users');
    clear(box);
    try {
      const users = await api('GET', 'users?tenant=' + encodeURIComponent(tenant) + '&agent=' + encodeURIComponent(agent));
      if (!users.length) box.appendChild(el('p', '(no users)', 'muted'));
      users.forEach((u) => {
        const b = button(u.user + '  ·  ' + u.active_memories + ' memories', () => openUser(tenant, agent, u.user));
        b.className = 'user' + (current && current.user === u.user ? ' active' : '');
        box.appendChild(b);
      });
      status('');
    } catch (err) { status(err.message, true); }
  }

  async function openUser(tenant, agent, user) {
    current = { tenant, agent, user };
    $('who').textContent = tenant + ' / ' + agent + ' / ' + user;
    $('user-title').textContent = 'End user ' + user;
    ['user-box', 'memories-box', 'observations-box'].forEach((id) => $(id).classList.remove('hidden'));
    $('history-box').classList.add('hidden');
    await refreshUser();
  }

  async function refreshUser() {
    if (!current) return;
    try {
      const [style, memories, observations] = await Promise.all([
        api('GET', 'style?scope=' + scopeParam()),
        api('GET', 'memories?scope=' + scopeParam() + ($('show-all').checked ? '&all=true' : '')),
        api('GET', 'observations?scope=' + scopeParam())]);
      renderStyle(style);
      renderMemories(memories);
      renderObservations(observations);
      status('');
    } catch (err) { status(err.message, true); }
  }

  function renderStyle(style) {
    const box = $('style');
    clear(box);
    if (!style) { box.appendChild(el('p', '(no style profile yet: a dream writes it)', 'muted')); return; }
    box.appendChild(table([['length', (s) => s.preferred_length], ['formality', (s) => s.formality],
      ['language', (s) => s.language], ['emoji', (s) => s.emoji ? 'yes' : 'no'], ['directness', (s) => s.directness],
      ['description', (s) => s.description, 'text'], ['updated', (s) => when(s.updated_at)]], [style]));
  }

  function renderMemories(memories) {
    const box = $('memories');
    clear(box);
    box.appendChild(table([
      ['kind', (m) => m.kind], ['text', (m) => m.text, 'text'], ['importance', (m) => Math.round(m.importance)],
      ['status', (m) => m.status], ['permanent', (m) => m.permanent ? 'yes' : ''],
      ['provenance', (m) => m.provenance ? m.provenance.source + (m.provenance.outcome && m.provenance.outcome !== 'UNKNOWN' ? ' (' + m.provenance.outcome + ')' : '') : ''],
      ['TTL', (m) => m.expired ? 'expired' : when(m.expires_at)]], memories,
    (m) => [button('history', () => showHistory(m.id)), button('edit', () => editMemory(m)),
      button('delete', () => deleteMemory(m))]));
  }

  function renderObservations(observations) {
    const box = $('observations');
    clear(box);
    box.appendChild(table([
      ['kind', (o) => o.kind], ['text', (o) => o.text, 'text'], ['status', (o) => o.status],
      ['observed', (o) => when(o.observed_at)], ['session', (o) => o.session_id]], observations,
    (o) => [button('delete', () => deleteObservation(o))]));
  }

  async function showHistory(id) {
    try {
      const events = await api('GET', 'history?scope=' + scopeParam() + '&id=' + encodeURIComponent(id));
      $('history-title').textContent = 'History of ' + id;
      const box = $('history');
      clear(box);
      box.appendChild(table([['at', (e) => when(e.at)], ['type', (e) => e.type], ['cause', (e) => e.cause],
        ['before', (e) => e.before, 'text'], ['after', (e) => e.after, 'text']], events));
      $('history-box').classList.remove('hidden');
    } catch (err) { status(err.message, true); }
  }

  async function editMemory(m) {
    const text = window.prompt('New text for ' + m.id, m.text);
    if (text === null || text === m.text) return;
    try { await api('POST', 'memory/edit?scope=' + scopeParam() + '&id=' + encodeURIComponent(m.id), { text }); status('edited ' + m.id); await refreshUser(); }
    catch (err) { status(err.message, true); }
  }

  async function deleteMemory(m) {
    if (!window.confirm('Delete memory ' + m.id + '?')) return;
    try { await api('DELETE', 'memory?scope=' + scopeParam() + '&id=' + encodeURIComponent(m.id)); status('deleted ' + m.id); await refreshUser(); }
    catch (err) { status(err.message, true); }
  }

  async function deleteObservation(o) {
    if (!window.confirm('Delete observation ' + o.id + '?')) return;
    try { await api('DELETE', 'observation?scope=' + scopeParam() + '&id=' + encodeURIComponent(o.id)); status('deleted ' + o.id); await refreshUser(); }
    catch (err) { status(err.message, true); }
  }

  $('show-all').addEventListener('change', refreshUser);

  $('erase-user').addEventListener('click', async () => {
    if (!current) return;
    const typed = window.prompt('Erase everything kept about ' + current.user + '? This cannot be undone. Type the user id to confirm.');
    if (typed !== current.user) { status('erase cancelled'); return; }
    try {
      await api('POST', 'erase?scope=' + scopeParam() + '&confirm=' + encodeURIComponent(current.user));
      status('erased ' + current.user);
      ['user-box', 'memories-box', 'observations-box', 'history-box'].forEach((id) => $(id).classList.add('hidden'));
      current = null;
      loadUsers();
    } catch (err) { status(err.message, true); }
  });

  // ------------------------------------------------------------------ dream with live progress

  $('dream-all').addEventListener('click', () => {
    const tenant = $('tenant').value.trim();
    const agent = $('agent').value.trim();
    stream('dream', tenant + '/' + agent, 'Dream of ' + tenant + '/' + agent);
  });
  $('dream-user').addEventListener('click', () => current && stream('dream', current.tenant + '/' + current.agent + '/' + current.user, 'Dream of ' + current.user));
  $('consolidate-user').addEventListener('click', () => current && stream('consolidate', current.tenant + '/' + current.agent + '/' + current.user, 'Consolidation of ' + current.user));

  async function stream(kind, scope, title) {
    $('progress-box').classList.remove('hidden');
    $('progress-title').textContent = title;
    const box = $('progress');
    const report = $('report');
    clear(box); clear(report);
    const bars = {};
    const users = el('p', '', 'muted');
    box.appendChild(users);
    function bar(phase) {
      if (!bars[phase]) {
        const row = el('div', null, 'phase');
        const name = el('span', phase);
        const outer = el('div', null, 'bar');
        const inner = el('div');
        outer.appendChild(inner);
        const label = el('span', '');
        row.appendChild(name); row.appendChild(outer); row.appendChild(document.createTextNode(' ')); row.appendChild(label);
        box.appendChild(row);
        bars[phase] = { inner, label };
      }
      return bars[phase];
    }
    const handlers = {
      phase_started: (d) => { const b = bar(d.phase); b.inner.style.width = '0%'; b.label.textContent = d.user + ' started'; },
      progress: (d) => { const b = bar(d.phase); const pct = d.total ? Math.round(100 * d.done / d.total) : 100; b.inner.style.width = pct + '%'; b.label.textContent = d.user + ' ' + d.done + '/' + d.total; },
      phase_finished: (d) => { const b = bar(d.phase); b.inner.style.width = '100%'; b.label.textContent = d.user + ' done'; },
      user_finished: (d) => { users.textContent = d.done + ' of ' + d.total + ' users done (last: ' + d.user + ')'; },
      user_failed: (d) => { box.appendChild(el('p', d.user + ' failed in ' + d.phase + ': ' + d.error, 'error')); },
      report: (d) => {
        report.appendChild(table([['counter', (r) => r[0]], ['value', (r) => r[1]]], Object.entries(d)));
        refreshUser();
      },
      error: (d) => { report.appendChild(el('p', d.error, 'error')); }
    };
    try {
      const r = await fetch('/api/' + kind + '?scope=' + encodeURIComponent(scope),
        { method: 'POST', headers: { 'Authorization': 'Bearer ' + token }, cache: 'no-store', credentials: 'omit' });
      if (!r.ok) {
        const data = await r.json().catch(() => ({ error: 'HTTP ' + r.status }));
        throw new Error(data.error);
      }
      const reader = r.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = 'message';
          let data = '';
          frame.split('\n').forEach((line) => {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          });
          if (handlers[event] && data) handlers[event](JSON.parse(data));
        }
      }
    } catch (err) { status(err.message, true); }
  }

  // ------------------------------------------------------------------ health

  $('health-refresh').addEventListener('click', loadHealth);

  async function loadHealth() {
    const box = $('health');
    clear(box);
    try {
      const h = await api('GET', 'health');
      box.appendChild(el('p', h.healthy ? 'healthy' : h.alerts.length + ' alert(s)', h.healthy ? 'muted' : 'alert'));
      h.alerts.forEach((a) => box.appendChild(el('p', a.layer + (a.tenant ? ' · ' + a.tenant + '/' + a.agent : '') + ': ' + a.message, 'alert')));
      const metrics = Object.entries(h.metrics);
      const details = el('details');
      details.appendChild(el('summary', metrics.length + ' metrics'));
      details.appendChild(table([['metric', (m) => m[0]], ['value', (m) => typeof m[1] === 'number' ? Math.round(m[1] * 1000) / 1000 : m[1]]], metrics));
      box.appendChild(details);
    } catch (err) { box.appendChild(el('p', err.message, 'error')); }
  }

  fromFragment();
})();
