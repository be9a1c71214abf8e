import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { actionSheet, appbar, bodyOf, json, kitCss, notFound, overflowMenu, renderPage, str, toast } from '../kit.js';
import { esc } from '../shared.js';
import { PAGE_SIZE } from './catalog.js';
import type { MailMessage, MailState } from './state.js';

const ACCENT = '#1a5fb4';
const CSS =
  kitCss(ACCENT, '#d0e3ff') +
  `
body{background:#fff}
.mail{display:flex;gap:14px;padding:14px 16px;border-bottom:1px solid #eceef1;background:#fff}
.mail .info{flex:1;min-width:0}
.mail .top{display:flex;justify-content:space-between;gap:8px;font-size:17px}
.mail .from{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;color:#343a40}
.mail .date{font-size:15px;color:#5f6670;flex:none}
.mail .subj{font-size:16px;margin-top:3px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;color:#343a40}
.mail .snip{font-size:15px;color:#5f6670;margin-top:2px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.mail.unread .from,.mail.unread .subj{font-weight:bold;color:#111}
.more{display:block;margin:16px auto;height:48px;padding:0 28px;border-radius:24px;border:2px solid ${ACCENT}!important;color:${ACCENT}!important;font-weight:bold;font-size:17px}
.msg{padding:16px}
.msg h2{font-size:23px;margin:0 0 14px}
.msg .hdr{display:flex;gap:12px;align-items:center;margin-bottom:18px}
.msg .body{font-size:18px;line-height:1.55;color:#1f2328;white-space:pre-wrap}
.btnrow{display:flex;gap:10px;padding:8px 16px}
.btnrow button,.btnrow a{flex:1;height:48px;border:2px solid #ced4da;border-radius:24px;font-size:17px;font-weight:bold;text-align:center;line-height:44px}
`;
const COLORS = ['#1864ab', '#c2255c', '#2b8a3e', '#e67700', '#6741d9', '#0b7285', '#a61e4d', '#495057'];
function avatar(name: string): string {
  let h = 0;
  for (const c of name) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return `<div class="av" style="background:${COLORS[h % COLORS.length] ?? '#495057'}">${esc(name.charAt(0).toUpperCase())}</div>`;
}

const menu = (ctx: AppContext): string =>
  overflowMenu([
    ['Inbox', `${ctx.base}/`],
    ['Sent', `${ctx.base}/sent`],
    ['Archived', `${ctx.base}/archived`],
  ]);

function row(m: MailMessage, ctx: AppContext): string {
  return `<a class="mail${m.read ? '' : ' unread'}" href="${ctx.base}/m/${m.id}" data-long data-id="${m.id}" data-subject="${esc(m.subject)}">${avatar(m.from)}
<div class="info"><div class="top"><span class="from">${esc(m.from)}</span><span class="date">${esc(m.date)}</span></div>
<div class="subj">${esc(m.subject)}</div><div class="snip">${esc(m.body)}</div></div></a>`;
}

function inboxPage(state: MailState, ctx: AppContext, n: number, toastKind: string): AppResponse {
  const inbox = state.messages.filter((m) => !m.archived);
  const shown = inbox.slice(0, n);
  const more = inbox.length > n ? `<a class="more" style="text-align:center;line-height:44px;width:60%" href="${ctx.base}/?n=${n + PAGE_SIZE}" onclick="event.preventDefault();location.replace(this.href)">Load more</a>` : '';
  const t =
    toastKind === 'sent'
      ? toast('Message sent')
      : toastKind === 'archived'
        ? toast('Conversation archived', { label: 'Undo', js: `api('undo',{}).then(()=>location.replace(BASE+'/?n=${n}'))` })
        : '';
  const unread = inbox.filter((m) => !m.read).length;
  const body = `${appbar('Inbox')}
<div class="section">Primary &middot; ${unread} unread</div>
${shown.map((m) => row(m, ctx)).join('') || '<div class="empty">Inbox is empty</div>'}${more}<div class="spacer"></div>
<a class="fab" href="${ctx.base}/compose" aria-label="Compose"><span class="plus">+</span><span>Compose</span></a>
${actionSheet('sheet', [
  ['Archive', 'archiveTarget()'],
  ['Mark as unread', "hide('sheet')"],
])}${menu(ctx)}${t}`;
  const script = `let target=null;const N=${n};
window.onLong=function(el){target=el;document.getElementById('sheet-t').textContent=el.dataset.subject;show('sheet')};
function archiveTarget(){api('archive',{id:Number(target.dataset.id)}).then(()=>location.replace(BASE+'/?toast=archived&n='+N))}`;
  return renderPage({ title: 'Inbox', css: CSS, body, ctx, script, root: true });
}

function folderPage(state: MailState, ctx: AppContext, which: 'sent' | 'archived'): AppResponse {
  const rows =
    which === 'sent'
      ? [...state.sent]
          .reverse()
          .map((s) => `<div class="mail"><div class="av" style="background:#495057">${esc((s.to.charAt(0) || '?').toUpperCase())}</div><div class="info"><div class="top"><span class="from">To: ${esc(s.to)}</span></div><div class="subj">${esc(s.subject || '(no subject)')}</div><div class="snip">${esc(s.body)}</div></div></div>`)
          .join('')
      : state.messages
          .filter((m) => m.archived)
          .map((m) => row(m, ctx))
          .join('');
  const title = which === 'sent' ? 'Sent' : 'Archived';
  const body = `${appbar(title, { back: true })}${rows || `<div class="empty">No ${which} messages</div>`}${menu(ctx)}`;
  return renderPage({ title, css: CSS, body, ctx });
}

function messagePage(state: MailState, ctx: AppContext, m: MailMessage): AppResponse {
  state.seq += 1;
  m.read = true;
  state.opened.push({ id: m.id, seq: state.seq });
  const actions = m.archived ? '' : `<button class="icon txt" onclick="archive()">Archive</button>`;
  const body = `${appbar('', { back: true, actions })}
<div class="msg"><h2>${esc(m.subject)}</h2><div class="hdr">${avatar(m.from)}<div><div style="font-size:17px;font-weight:bold">${esc(m.from)}</div>
<div class="muted">${esc(m.email)} &middot; to me &middot; ${esc(m.date)}</div></div></div><div class="body">${esc(m.body)}</div></div>
<div class="btnrow"><a href="${ctx.base}/compose?to=${encodeURIComponent(m.email)}&subject=${encodeURIComponent('Re: ' + m.subject)}">Reply</a><button onclick="history.back()">Close</button></div>
${overflowMenu([
  ['Reply', `${ctx.base}/compose?to=${encodeURIComponent(m.email)}&subject=${encodeURIComponent('Re: ' + m.subject)}`],
  ['Mark as unread', `js:api('unread',{id:${m.id}}).then(()=>history.back())`],
])}`;
  const script = `function archive(){api('archive',{id:${m.id}}).then(()=>location.replace(BASE+'/?toast=archived'))}`;
  return renderPage({ title: m.subject, css: CSS, body, ctx, script });
}

function composePage(ctx: AppContext, to: string, subject: string): AppResponse {
  const body = `${appbar('Compose', { back: true, menu: false, actions: '<button class="icon txt" id="send" onclick="send()">Send</button>' })}
<div class="field"><label for="to">To</label><input id="to" type="email" placeholder="Recipient email" autocomplete="off" value="${esc(to)}"></div>
<div class="field"><label for="subject">Subject</label><input id="subject" type="text" placeholder="Subject" autocomplete="off" value="${esc(subject)}"></div>
<div class="field"><label for="body">Message</label><textarea id="body" placeholder="Compose email"></textarea></div>
<div class="error" id="err" role="alert"></div>`;
  const script = `function send(){const v=(id)=>document.getElementById(id).value;
 api('send',{to:v('to'),subject:v('subject'),body:v('body')}).then(r=>{if(r.ok)location.replace(BASE+'/?toast=sent');else document.getElementById('err').textContent=r.error})}`;
  return renderPage({ title: 'Compose', css: CSS, body, ctx, script });
}

function handleApi(state: MailState, action: string, b: Record<string, unknown>): AppResponse {
  state.seq += 1;
  const msg = state.messages.find((m) => m.id === Number(b.id));
  switch (action) {
    case 'send': {
      const to = str(b.to).trim();
      if (!to) return json({ ok: false, error: 'Add at least one recipient' });
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(to)) return json({ ok: false, error: `"${to}" is not a valid email address` });
      state.sent.push({ to, subject: str(b.subject).trim().slice(0, 200), body: str(b.body).slice(0, 4000), seq: state.seq });
      return json({ ok: true });
    }
    case 'archive':
      if (!msg) return json({ ok: false }, 404);
      msg.archived = true;
      msg.archivedSeq = state.seq;
      return json({ ok: true });
    case 'undo': {
      const last = state.messages.filter((m) => m.archived).sort((a, c) => c.archivedSeq - a.archivedSeq)[0];
      if (last) last.archived = false;
      return json({ ok: true });
    }
    case 'unread':
      if (msg) msg.read = false;
      return json({ ok: true });
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleMail(state: MailState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(state, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg] = parts;
  if (head === undefined) {
    const n = Math.max(PAGE_SIZE, Math.min(200, Number(req.query.get('n')) || PAGE_SIZE));
    return inboxPage(state, ctx, n, req.query.get('toast') ?? '');
  }
  if (head === 'sent' || head === 'archived') return folderPage(state, ctx, head);
  if (head === 'compose') return composePage(ctx, req.query.get('to') ?? '', req.query.get('subject') ?? '');
  if (head === 'm' && arg) {
    const m = state.messages.find((x) => x.id === Number(arg));
    if (m) return messagePage(state, ctx, m);
  }
  return notFound(CSS);
}
