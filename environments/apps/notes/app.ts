import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { actionSheet, appbar, bodyOf, confirmDialog, json, kitCss, notFound, overflowMenu, renderPage, str, toast } from '../kit.js';
import { esc } from '../shared.js';
import type { Note, NotesState } from './state.js';

const ACCENT = '#b35c00';
const CSS =
  kitCss(ACCENT, '#ffe8c2') +
  `
body{background:#fbf7ef}
.search{display:flex;gap:8px;padding:12px;background:#fff;border-bottom:1px solid #eee3d0}
.search input{flex:1;height:48px;border:2px solid #d9cdb8;border-radius:24px;padding:0 18px;font-size:17px;outline:none;background:#fffdf8}
.search input:focus{border-color:${ACCENT}}
.search button{height:48px;padding:0 18px;border-radius:24px;background:${ACCENT};color:#fff;font-weight:bold;font-size:16px}
.note{display:block;margin:8px 12px;padding:14px 16px;background:#fff;border-radius:14px;border:1px solid #eadfca;box-shadow:0 1px 2px rgba(0,0,0,.06)}
.note .t{font-size:19px;font-weight:bold;color:#1f2328;display:flex;justify-content:space-between;gap:8px}
.note .b{font-size:16px;color:#4a4f57;margin-top:6px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.pin{font-size:14px;font-weight:bold;color:${ACCENT};border:1px solid ${ACCENT};border-radius:10px;padding:1px 8px;flex:none}
.view{margin:12px;padding:18px;background:#fff;border-radius:14px;border:1px solid #eadfca}
.view h2{margin:0 0 12px;font-size:24px}
.view .body{font-size:18px;line-height:1.5;white-space:pre-wrap;color:#2b2f36}
`;

function visibleNotes(state: NotesState): Note[] {
  return state.notes.filter((n) => !n.deleted);
}

function noteCard(n: Note, ctx: AppContext): string {
  return `<a class="note" href="${ctx.base}/n/${n.id}" data-long data-id="${n.id}" data-title="${esc(n.title)}" data-pinned="${n.pinned}">
<div class="t"><span>${esc(n.title)}</span>${n.pinned ? '<span class="pin">Pinned</span>' : ''}</div><div class="b">${esc(n.body || 'No text')}</div></a>`;
}

function listPage(state: NotesState, ctx: AppContext, q: string, toastKind: string): AppResponse {
  const needle = q.trim().toLowerCase();
  if (needle) {
    state.seq += 1;
    state.searches.push({ q: q.trim(), seq: state.seq });
  }
  const notes = visibleNotes(state).filter((n) => !needle || n.title.toLowerCase().includes(needle) || n.body.toLowerCase().includes(needle));
  // Newest first within each group.
  const sorted = [...notes].sort((a, b) => b.createdSeq - a.createdSeq || a.id - b.id);
  const pinned = sorted.filter((n) => n.pinned);
  const others = sorted.filter((n) => !n.pinned);
  const list = needle
    ? `<div class="section">Results for &ldquo;${esc(q.trim())}&rdquo;</div>${sorted.map((n) => noteCard(n, ctx)).join('') || `<div class="empty">No notes match &ldquo;${esc(q.trim())}&rdquo;</div>`}
<a class="primary" href="${ctx.base}/" style="background:#fff!important;color:${ACCENT}!important;border:2px solid ${ACCENT}">Clear search</a>`
    : (pinned.length ? `<div class="section">Pinned</div>${pinned.map((n) => noteCard(n, ctx)).join('')}` : '') +
      `<div class="section">${pinned.length ? 'Others' : 'All notes'}</div>${others.map((n) => noteCard(n, ctx)).join('') || '<div class="empty">No notes yet</div>'}`;
  const t =
    toastKind === 'deleted'
      ? toast('Note deleted', { label: 'Undo', js: "api('undo',{}).then(()=>location.replace(BASE+'/'))" })
      : toastKind === 'saved'
        ? toast('Note saved')
        : '';
  const body = `${appbar('Notes')}
<form class="search" method="get" action="${ctx.base}/" role="search"><input name="q" type="search" placeholder="Search notes" aria-label="Search notes" value="${esc(q)}" autocomplete="off"><button type="submit">Search</button></form>
<div class="muted" style="padding:10px 16px 0">Press and hold a note for more options</div>
${list}<div class="spacer"></div>
<a class="fab" href="${ctx.base}/new" aria-label="New note"><span class="plus">+</span><span>New note</span></a>
${actionSheet('sheet', [
  ['Pin', 'pinTarget()'],
  ['Share', "hide('sheet')"],
  ['Delete', "hide('sheet');show('del')"],
])}
${confirmDialog('del', 'Delete note?', '', 'Delete', 'delTarget()')}
${overflowMenu([
  ['New note', `${ctx.base}/new`],
  ['Settings', 'js:__tfMenu()'],
])}${t}`;
  const script = `let target=null;
window.onLong=function(el){target=el;document.getElementById('sheet-t').textContent=el.dataset.title;
 document.querySelector('#sheet [data-act="Pin"]').textContent=el.dataset.pinned==='true'?'Unpin':'Pin';
 document.getElementById('del-text').textContent='"'+el.dataset.title+'" will be deleted.';show('sheet')};
function pinTarget(){api('pin',{id:Number(target.dataset.id),pinned:target.dataset.pinned!=='true'}).then(()=>location.reload())}
function delTarget(){api('delete',{id:Number(target.dataset.id)}).then(()=>location.replace(BASE+'/?toast=deleted'))}`;
  return renderPage({ title: 'Notes', css: CSS, body, ctx, script, root: true });
}

function viewPage(state: NotesState, ctx: AppContext, n: Note): AppResponse {
  state.seq += 1;
  state.opened.push({ id: n.id, seq: state.seq });
  const actions = `<button class="icon txt" onclick="togglePin()">${n.pinned ? 'Unpin' : 'Pin'}</button><a class="icon txt" href="${ctx.base}/n/${n.id}/edit">Edit</a>`;
  const body = `${appbar('Note', { back: true, actions })}
<div class="view"><h2>${esc(n.title)}</h2>${n.pinned ? '<div class="pin" style="display:inline-block;margin-bottom:10px">Pinned</div>' : ''}<div class="body">${esc(n.body)}</div></div>
${overflowMenu([
  ['Edit', `${ctx.base}/n/${n.id}/edit`],
  ['Delete', "js:__tfMenu();show('del')"],
])}
${confirmDialog('del', 'Delete note?', `"${n.title}" will be deleted.`, 'Delete', 'delNote()')}`;
  const script = `const ID=${n.id};
function togglePin(){api('pin',{id:ID,pinned:${!n.pinned}}).then(()=>location.reload())}
function delNote(){api('delete',{id:ID}).then(()=>location.replace(BASE+'/?toast=deleted'))}`;
  return renderPage({ title: n.title, css: CSS, body, ctx, script });
}

function editPage(ctx: AppContext, n: Note | undefined): AppResponse {
  const body = `${appbar(n ? 'Edit note' : 'New note', { back: true, menu: false, actions: '<button class="icon txt" id="save" onclick="save()">Save</button>' })}
<div class="field"><label for="title">Title</label><input id="title" type="text" placeholder="Title" autocomplete="off" value="${esc(n?.title ?? '')}"></div>
<div class="field"><label for="body">Note</label><textarea id="body" placeholder="Start typing">${esc(n?.body ?? '')}</textarea></div>
<div class="error" id="err" role="alert"></div>
<button class="primary" onclick="save()">Save note</button>`;
  const script = `const ID=${n ? n.id : 'null'};
function save(){const title=document.getElementById('title').value,body=document.getElementById('body').value;
 api('save',{id:ID,title,body}).then(r=>{if(r.ok)location.replace(BASE+'/n/'+r.id);else document.getElementById('err').textContent=r.error})}`;
  return renderPage({ title: n ? 'Edit note' : 'New note', css: CSS, body, ctx, script });
}

function handleApi(state: NotesState, action: string, b: Record<string, unknown>): AppResponse {
  const byId = (): Note | undefined => state.notes.find((n) => n.id === Number(b.id) && !n.deleted);
  state.seq += 1;
  switch (action) {
    case 'save': {
      const title = str(b.title).trim().slice(0, 120);
      const text = str(b.body).slice(0, 4000);
      if (!title) return json({ ok: false, error: "Title can't be empty" });
      if (b.id === null || b.id === undefined) {
        const n: Note = { id: state.nextId++, title, body: text, pinned: false, deleted: false, seeded: false, createdSeq: state.seq, editedSeq: state.seq };
        state.notes.push(n);
        return json({ ok: true, id: n.id });
      }
      const n = byId();
      if (!n) return json({ ok: false, error: 'This note no longer exists' });
      n.title = title;
      n.body = text;
      n.editedSeq = state.seq;
      return json({ ok: true, id: n.id });
    }
    case 'pin': {
      const n = byId();
      if (!n) return json({ ok: false }, 404);
      n.pinned = b.pinned === true;
      return json({ ok: true });
    }
    case 'delete': {
      const n = byId();
      if (!n) return json({ ok: false }, 404);
      n.deleted = true;
      n.editedSeq = state.seq;
      return json({ ok: true });
    }
    case 'undo': {
      const last = [...state.notes].filter((n) => n.deleted).sort((a, b2) => b2.editedSeq - a.editedSeq)[0];
      if (last) last.deleted = false;
      return json({ ok: true });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleNotes(state: NotesState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(state, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg, sub] = parts;
  if (head === undefined) return listPage(state, ctx, req.query.get('q') ?? '', req.query.get('toast') ?? '');
  if (head === 'new') return editPage(ctx, undefined);
  if (head === 'n' && arg) {
    const n = state.notes.find((x) => x.id === Number(arg) && !x.deleted);
    if (n && sub === 'edit') return editPage(ctx, n);
    if (n && sub === undefined) return viewPage(state, ctx, n);
  }
  return notFound(CSS);
}
