import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { actionSheet, appbar, avatar, bodyOf, confirmDialog, json, kitCss, notFound, overflowMenu, renderPage, str } from '../mobile-kit.js';
import { esc } from '../shared.js';
import { PEOPLE, personByName } from './catalog.js';
import type { MessagesState, Thread } from './state.js';

/** How long a conversation shows its loading spinner (a running CSS animation keeps the environment waiting). */
export const THREAD_LOAD_MS = 400;

const ACCENT = '#2b8a3e';
const CSS =
  kitCss(ACCENT, '#ebfbee') +
  `
.row .preview{font-size:15px;color:#5a616b;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;margin-top:3px}
.row.unread .name,.row.unread .preview{font-weight:bold;color:#1f2328}
.udot{width:12px;height:12px;border-radius:6px;background:${ACCENT};flex:none}
.loading{padding:80px 0;text-align:center;font-size:17px;color:#5a616b}
.loading p{margin-top:16px}
.msgs{padding:12px 12px 110px;display:flex;flex-direction:column;gap:8px}
.bubble{max-width:78%;padding:10px 14px;border-radius:18px;font-size:17px;line-height:1.35}
.bubble.them{align-self:flex-start;background:#fff;border:1px solid #dee2e6;border-bottom-left-radius:6px}
.bubble.me{align-self:flex-end;background:${ACCENT};color:#fff;border-bottom-right-radius:6px}
.composer{position:fixed;left:0;right:0;bottom:0;z-index:20;background:#fff;border-top:1px solid #dde1e6;padding:10px;display:flex;gap:8px;align-items:center}
.composer input{flex:1;height:48px;border:2px solid #cfd4da;border-radius:24px;padding:0 18px;font-size:17px;outline:none;background:#f8f9fa}
.composer input:focus{border-color:${ACCENT};background:#fff}
.composer button{height:48px;padding:0 20px;border-radius:24px;background:${ACCENT};color:#fff;font-weight:bold;font-size:17px}
.to{display:flex;align-items:center;gap:10px;background:#fff;padding:10px 16px;border-bottom:1px solid #e5e7eb}
.to b{font-size:17px;color:#5a616b}
.to input{flex:1;height:46px;border:none;font-size:18px;outline:none}
.sugg .row{min-height:60px}
`;

function page(ctx: AppContext, title: string, body: string, script = '', root = false): AppResponse {
  const m = overflowMenu([
    { label: 'Start chat', href: `${ctx.base}/new` },
    { label: 'All conversations', href: `${ctx.base}/` },
  ]);
  return renderPage({ title, css: CSS, ctx, body: body + m, script, root });
}

function inboxPage(state: MessagesState, ctx: AppContext): AppResponse {
  const rows = state.threads
    .map((t) => {
      const last = t.messages.at(-1);
      const preview = last ? `${last.from === 'me' ? 'You: ' : ''}${last.text}` : '';
      return `<a class="row${t.unread ? ' unread' : ''}" href="${ctx.base}/t/${t.id}" data-thread="${t.id}" data-name="${esc(t.contact)}">${avatar(t.contact)}
<div class="info"><div class="name">${esc(t.contact)}</div><div class="preview">${esc(preview)}</div></div>${t.unread ? '<span class="udot" aria-label="Unread"></span>' : ''}</a>`;
    })
    .join('');
  const body = `${appbar('Messages', { back: false })}<div class="hint">Press and hold a conversation for more options</div>
${rows || '<div class="empty">No conversations</div>'}<div class="spacer"></div>
<a class="fab" href="${ctx.base}/new"><span class="plus">+</span>Start chat</a>
${actionSheet('ctx', [
  { label: 'Delete conversation', js: "document.getElementById('ctx').hidden=true;document.getElementById('del-text').textContent='All messages with '+ctxTarget.dataset.name+' will be deleted.';openDlg('del')" },
  { label: 'Mark as read', js: "api('read',{id:ctxTarget.dataset.thread}).then(()=>location.replace(location.pathname))" },
])}
${confirmDialog('del', { title: 'Delete this conversation?', text: '', confirm: 'Delete', destroy: true, confirmJs: "api('delete',{id:ctxTarget.dataset.thread}).then(()=>location.replace(location.pathname+'?toast=Conversation deleted'))" })}`;
  const script = `for(const r of document.querySelectorAll('[data-thread]'))longPress(r,el=>openSheet('ctx',el,el.dataset.name));`;
  return page(ctx, 'Messages', body, script, true);
}

const bubbles = (t: Thread): string => t.messages.map((m) => `<div class="bubble ${m.from}">${esc(m.text)}</div>`).join('');

function threadPage(state: MessagesState, ctx: AppContext, t: Thread): AppResponse {
  state.seq += 1;
  state.opened.push({ threadId: t.id, seq: state.seq });
  t.unread = false;
  const body = `${appbar(t.contact, { back: true })}
<div id="loading" class="loading" role="status"><div class="spin"></div><p>Loading messages</p></div>
<div id="msgs" class="msgs" hidden>${bubbles(t)}</div>
<div class="composer"><input id="text" type="text" placeholder="Text message" autocomplete="off" aria-label="Text message"><button id="send" onclick="send()">Send</button></div>`;
  const script = `const TID=${JSON.stringify(t.id)};
setTimeout(()=>{document.getElementById('loading').hidden=true;document.getElementById('msgs').hidden=false;scrollTo(0,document.body.scrollHeight)},${THREAD_LOAD_MS});
const box=document.getElementById('text');
box.addEventListener('keydown',e=>{if(e.key==='Enter'){e.preventDefault();send()}});
function send(){const text=box.value.trim();if(!text)return;
 api('send',{id:TID,text}).then(s=>{if(!s.ok)return;const b=document.createElement('div');b.className='bubble me';b.textContent=text;document.getElementById('msgs').appendChild(b);box.value='';scrollTo(0,document.body.scrollHeight);toast('Sent')})}`;
  return page(ctx, t.contact, body, script);
}

function composePage(ctx: AppContext): AppResponse {
  const sugg = PEOPLE.map((p) => `<button class="row" style="width:100%;text-align:left" data-person="${esc(p)}" onclick="pick(this.dataset.person)">${avatar(p, 40)}<div class="info"><div class="name" style="font-size:17px">${esc(p)}</div></div></button>`).join('');
  const body = `${appbar('New message', { back: true })}
<div class="to"><b>To</b><input id="to" type="text" placeholder="Type a name" autocomplete="off" aria-label="To"></div>
<div class="error" id="err" style="padding-top:8px"></div><div class="section">Contacts</div><div class="sugg" id="sugg">${sugg}</div><div class="spacer"></div>
<div class="composer"><input id="text" type="text" placeholder="Text message" autocomplete="off" aria-label="Text message"><button id="send" onclick="send()">Send</button></div>`;
  const script = `const to=document.getElementById('to'),box=document.getElementById('text');
function filter(){const q=to.value.trim().toLowerCase();for(const b of document.querySelectorAll('[data-person]'))b.hidden=!!q&&!b.dataset.person.toLowerCase().includes(q)}
to.addEventListener('input',filter);
function pick(p){to.value=p;filter();document.getElementById('err').textContent='';box.focus()}
box.addEventListener('keydown',e=>{if(e.key==='Enter'){e.preventDefault();send()}});
to.addEventListener('keydown',e=>{if(e.key==='Enter'){e.preventDefault();box.focus()}});
function send(){const err=document.getElementById('err');
 api('compose',{to:to.value,text:box.value}).then(s=>{if(s.ok)location.replace(BASE+'/t/'+s.id+'?toast=Sent');else err.textContent=s.error})}`;
  return page(ctx, 'New message', body, script);
}

function sendIn(state: MessagesState, t: Thread, text: string): void {
  state.seq += 1;
  t.messages.push({ from: 'me', text, sent: true, seq: state.seq });
  state.threads = [t, ...state.threads.filter((x) => x !== t)];
}

function handleApi(state: MessagesState, action: string, body: Record<string, unknown>): AppResponse {
  const t = state.threads.find((x) => x.id === str(body.id));
  switch (action) {
    case 'send': {
      const text = str(body.text).trim().slice(0, 500);
      if (!t || !text) return json({ ok: false });
      sendIn(state, t, text);
      return json({ ok: true });
    }
    case 'compose': {
      const name = str(body.to).trim();
      const text = str(body.text).trim().slice(0, 500);
      if (!name) return json({ ok: false, error: 'Choose a recipient' });
      const person = personByName(name);
      if (!person) return json({ ok: false, error: `No contact named "${name.slice(0, 40)}"` });
      if (!text) return json({ ok: false, error: 'Type a message' });
      let thread = state.threads.find((x) => x.contact === person);
      if (!thread) {
        thread = { id: `c${state.nextId++}`, contact: person, messages: [], unread: false };
        state.threads.unshift(thread);
      }
      sendIn(state, thread, text);
      return json({ ok: true, id: thread.id });
    }
    case 'read':
      if (!t) return json({ error: 'no such conversation' }, 404);
      t.unread = false;
      return json({ ok: true });
    case 'delete':
      if (!t) return json({ error: 'no such conversation' }, 404);
      state.seq += 1;
      state.threads = state.threads.filter((x) => x !== t);
      state.deleted.push({ contact: t.contact, seq: state.seq });
      return json({ ok: true });
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleMessages(state: MessagesState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') {
    if (parts[0] === 'api' && parts[1]) return handleApi(state, parts[1], bodyOf(req.body));
    return json({ error: 'not found' }, 404);
  }
  const [head, arg] = parts;
  if (head === undefined) return inboxPage(state, ctx);
  if (head === 'new') return composePage(ctx);
  if (head === 't' && arg) {
    const t = state.threads.find((x) => x.id === arg);
    if (t) return threadPage(state, ctx, t);
    return notFound(CSS, 'Conversation not found');
  }
  return notFound(CSS);
}
