import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { actionSheet, appbar, avatar, bodyOf, confirmDialog, json, kitCss, notFound, overflowMenu, renderPage, str } from '../mobile-kit.js';
import { esc } from '../shared.js';
import { fullName, phoneError } from './catalog.js';
import type { Contact, ContactsState } from './state.js';

const ACCENT = '#1864ab';
const CSS =
  kitCss(ACCENT, '#e7f5ff') +
  `
.search{display:flex;gap:8px;padding:12px;background:#fff;border-bottom:1px solid #e5e7eb}
.search input{flex:1;height:46px;border:2px solid #cfd4da;border-radius:23px;padding:0 18px;font-size:17px;outline:none;background:#f8f9fa}
.search input:focus{border-color:${ACCENT};background:#fff}
.search button{height:46px;padding:0 18px;border-radius:23px;background:${ACCENT};color:#fff;font-weight:bold;font-size:16px}
.letter{padding:10px 16px 4px;font-size:16px;font-weight:bold;color:${ACCENT};background:#f6f7f9}
.favstar{color:#f59f00;font-size:22px}
.head{background:#fff;text-align:center;padding:24px 16px 16px;border-bottom:1px solid #e5e7eb}
.head h2{margin:14px 0 4px;font-size:26px}
.head .avatar{margin:0 auto}
.acts3{display:flex;justify-content:center;gap:10px;margin-top:16px}
.acts3 button{min-width:88px;padding:0 14px;height:48px;border-radius:24px;border:2px solid ${ACCENT};color:${ACCENT};font-weight:bold;font-size:16px;background:#fff}
.acts3 button.on{background:#fff4d6;border-color:#f59f00;color:#8a5a00}
.kv{background:#fff;padding:14px 16px;border-bottom:1px solid #eceef1}
.kv .k{font-size:15px;color:#5a616b}
.kv .v{font-size:18px;margin-top:4px}
`;

const sorted = (cs: readonly Contact[]): Contact[] =>
  [...cs].sort((a, b) => fullName(a).toLowerCase().localeCompare(fullName(b).toLowerCase()));

function page(ctx: AppContext, title: string, body: string, script = '', root = false, menu = true): AppResponse {
  const m = menu ? overflowMenu([{ label: 'New contact', href: `${ctx.base}/new` }, { label: 'Favourites', href: `${ctx.base}/#favourites` }]) : '';
  return renderPage({ title, css: CSS, ctx, body: body + m, script, root });
}

function row(ctx: AppContext, c: Contact): string {
  return `<a class="row" href="${ctx.base}/c/${c.id}" data-contact="${c.id}" data-name="${esc(fullName(c))}">${avatar(fullName(c))}
<div class="info"><div class="name">${esc(fullName(c))}</div></div>${c.favourite ? '<span class="favstar" aria-label="Favourite">&#9733;</span>' : ''}</a>`;
}

function listPage(state: ContactsState, ctx: AppContext, q: string): AppResponse {
  const needle = q.trim().toLowerCase();
  if (needle) {
    state.seq += 1;
    state.searches.push({ q: q.trim(), seq: state.seq });
  }
  const all = sorted(state.contacts);
  let content: string;
  if (needle) {
    const hits = all.filter((c) => fullName(c).toLowerCase().includes(needle) || c.phone.replace(/\D/g, '').includes(needle.replace(/\D/g, '') || '#'));
    content = `<div class="section" style="display:flex;justify-content:space-between"><span>Results for &ldquo;${esc(q.trim())}&rdquo;</span><a href="${ctx.base}/">Clear</a></div>
${hits.map((c) => row(ctx, c)).join('') || `<div class="empty">No contacts match &ldquo;${esc(q.trim())}&rdquo;</div>`}`;
  } else {
    const favs = all.filter((c) => c.favourite);
    let letter = '';
    const rows = all
      .map((c) => {
        const l = (c.first[0] ?? '#').toUpperCase();
        const head = l !== letter ? `<div class="letter">${l}</div>` : '';
        letter = l;
        return head + row(ctx, c);
      })
      .join('');
    content = `<div class="section" id="favourites">Favourites</div>${favs.map((c) => row(ctx, c)).join('') || '<div class="hint">No favourites yet</div>'}
<div class="section">All contacts (${all.length})</div>${rows}`;
  }
  const body = `${appbar('Contacts', { back: false })}
<form class="search" method="get" action="${ctx.base}/" role="search"><input name="q" type="search" placeholder="Search contacts" value="${esc(q)}" autocomplete="off" aria-label="Search contacts"><button type="submit">Search</button></form>
<div class="hint">Press and hold a contact for more options</div>${content}<div class="spacer"></div>
<a class="fab" href="${ctx.base}/new"><span class="plus">+</span>New contact</a>
${actionSheet('ctx', [
  { label: 'Add to favourites', js: "api('favourite',{id:ctxTarget.dataset.contact,on:true}).then(()=>location.replace(location.pathname+location.search))" },
  { label: 'Delete contact', js: "document.getElementById('ctx').hidden=true;document.getElementById('del-text').textContent=ctxTarget.dataset.name+' will be removed from your contacts.';openDlg('del')" },
])}
${confirmDialog('del', { title: 'Delete contact?', text: '', confirm: 'Delete', destroy: true, confirmJs: "api('delete',{id:ctxTarget.dataset.contact}).then(()=>location.replace(location.pathname+'?toast=Contact deleted'))" })}`;
  const script = `for(const r of document.querySelectorAll('[data-contact]'))longPress(r,el=>openSheet('ctx',el,el.dataset.name));`;
  return page(ctx, 'Contacts', body, script, true);
}

function detailPage(ctx: AppContext, c: Contact): AppResponse {
  const name = fullName(c);
  const body = `${appbar('Contact', { back: true, right: `<a class="txt" href="${ctx.base}/c/${c.id}/edit" style="line-height:44px">Edit</a>` })}
<div class="head">${avatar(name, 96)}<h2>${esc(name)}</h2>
<div class="acts3"><button id="fav" class="${c.favourite ? 'on' : ''}" aria-pressed="${c.favourite}" onclick="fav()">${c.favourite ? '&#9733; Favourite' : '&#9734; Add to favourites'}</button>
<button onclick="">Call</button><button onclick="">Message</button></div></div>
<div class="kv"><div class="k">Mobile</div><div class="v">${esc(c.phone)}</div></div>
<div class="kv"><div class="k">Email</div><div class="v">${esc(c.email || 'None')}</div></div>
<div class="kv"><div class="k">Address</div><div class="v">${esc(c.address || 'None')}</div></div>
<button class="secondary danger" onclick="openDlg('del')">Delete contact</button><div class="spacer"></div>
${confirmDialog('del', { title: 'Delete contact?', text: `${name} will be removed from your contacts.`, confirm: 'Delete', destroy: true, confirmJs: `api('delete',{id:'${c.id}'}).then(()=>location.replace(BASE+'/?toast=Contact deleted'))` })}`;
  const script = `let on=${c.favourite};
function fav(){on=!on;api('favourite',{id:${JSON.stringify(c.id)},on}).then(()=>{const b=document.getElementById('fav');b.classList.toggle('on',on);b.setAttribute('aria-pressed',String(on));
 b.textContent=on?'\\u2605 Favourite':'\\u2606 Add to favourites';toast(on?'Added to favourites':'Removed from favourites')})}`;
  return page(ctx, name, body, script);
}

function formPage(ctx: AppContext, c: Contact | undefined): AppResponse {
  const title = c ? 'Edit contact' : 'New contact';
  const f = (id: string, label: string, type: string, value: string, ph: string): string =>
    `<div class="field" id="f-${id}"><label for="${id}">${label}</label><input id="${id}" type="${type}" placeholder="${ph}" autocomplete="off" value="${esc(value)}"><div class="ferr" id="e-${id}"></div></div>`;
  const body = `${appbar(title, { back: true, menu: false, right: `<button class="txt" onclick="save()">Save</button>` })}
${f('first', 'First name', 'text', c?.first ?? '', 'First name')}${f('last', 'Last name', 'text', c?.last ?? '', 'Last name')}
${f('phone', 'Phone', 'tel', c?.phone ?? '', 'Phone number')}${f('email', 'Email', 'email', c?.email ?? '', 'Email address')}
<button class="primary" onclick="save()">Save contact</button><div class="spacer"></div>`;
  const script = `const ID=${JSON.stringify(c?.id ?? null)};
function save(){const v=k=>document.getElementById(k).value;
 for(const k of ['first','last','phone','email']){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
 document.activeElement&&document.activeElement.blur();
 api('save',{id:ID,first:v('first'),last:v('last'),phone:v('phone'),email:v('email')}).then(s=>{
  if(s.ok){location.replace(BASE+'/c/'+s.id+'?toast=Contact saved');return}
  for(const [k,m] of Object.entries(s.errors||{})){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}})}
for(const k of ['first','last','phone','email'])document.getElementById(k).addEventListener('keydown',e=>{if(e.key==='Enter')save()});`;
  return page(ctx, title, body, script, false, false);
}

function handleApi(state: ContactsState, action: string, body: Record<string, unknown>): AppResponse {
  const c = state.contacts.find((x) => x.id === str(body.id));
  switch (action) {
    case 'save': {
      const first = str(body.first).trim().slice(0, 60);
      const last = str(body.last).trim().slice(0, 60);
      const phone = str(body.phone).trim().slice(0, 40);
      const email = str(body.email).trim().slice(0, 100);
      const errors: Record<string, string> = {};
      if (!first) errors.first = 'First name is required';
      const pe = phoneError(phone);
      if (pe) errors.phone = pe;
      if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) errors.email = 'Enter a valid email address';
      if (Object.keys(errors).length) return json({ ok: false, errors });
      state.seq += 1;
      if (body.id !== null && body.id !== undefined) {
        if (!c) return json({ ok: false, errors: { first: 'This contact no longer exists' } });
        Object.assign(c, { first, last, phone, email });
        return json({ ok: true, id: c.id });
      }
      const id = `new${state.nextId++}`;
      state.contacts.push({ id, first, last, phone, email, address: '', favourite: false });
      return json({ ok: true, id });
    }
    case 'favourite':
      if (!c) return json({ error: 'no such contact' }, 404);
      c.favourite = body.on === true;
      return json({ ok: true });
    case 'delete':
      if (!c) return json({ error: 'no such contact' }, 404);
      state.seq += 1;
      state.contacts = state.contacts.filter((x) => x.id !== c.id);
      state.deleted.push({ id: c.id, seq: state.seq });
      return json({ ok: true });
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleContacts(state: ContactsState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') {
    if (parts[0] === 'api' && parts[1]) return handleApi(state, parts[1], bodyOf(req.body));
    return json({ error: 'not found' }, 404);
  }
  const [head, arg, sub] = parts;
  if (head === undefined) return listPage(state, ctx, req.query.get('q') ?? '');
  if (head === 'new') return formPage(ctx, undefined);
  if (head === 'c' && arg) {
    const c = state.contacts.find((x) => x.id === arg);
    if (!c) return notFound(CSS, 'Contact not found');
    if (sub === 'edit') return formPage(ctx, c);
    if (sub === undefined) return detailPage(ctx, c);
  }
  return notFound(CSS);
}
