import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, tabBar, confirmDialog, json, kitCss, notFound, overflowMenu, pickerDialog, renderPage, str, toast } from '../kit.js';
import { esc } from '../shared.js';
import { STORES, type PharmacyState, type Prescription } from './state.js';

const ACCENT = '#0b7285';
const CSS =
  kitCss(ACCENT, '#c5f6fa') +
  `
body{background:#f1f6f7}
.tabs{display:flex;background:#fff;border-bottom:1px solid #d9e4e6}
.tabs a{flex:1;text-align:center;padding:14px 0;font-size:17px;font-weight:bold;color:#5f6670;border-bottom:3px solid transparent}
.tabs a.on{color:${ACCENT};border-bottom-color:${ACCENT}}
.card{margin:12px;padding:18px;background:#fff;border-radius:14px;border:1px solid #d9e4e6}
.card h2{margin:0 0 6px;font-size:24px}
.card .d{font-size:17px;color:#4a4f57;margin-bottom:10px}
.status{margin:0 12px;padding:12px 14px;border-radius:10px;background:#e3fafc;color:#0b5563;font-size:17px;font-weight:bold}
.status.none{background:#fff4e6;color:#a34a00}
.pick{display:flex;justify-content:space-between;align-items:center;width:100%;height:52px;border:2px solid #d0d4da;border-radius:10px;padding:0 14px;font-size:18px;background:#fff}
.ferr{color:#c92a2a;font-size:15px;font-weight:bold;margin-top:6px;min-height:4px}
`;

const tabs = (ctx: AppContext, on: 'rx' | 'reminders' | 'store'): string =>
  tabBar(
    [
      ['rx', 'Prescriptions', `${ctx.base}/`],
      ['reminders', 'Reminders', `${ctx.base}/reminders`],
      ['store', 'My store', `${ctx.base}/store`],
    ],
    on,
  );

const menu = (ctx: AppContext): string =>
  overflowMenu([
    ['Transfer a prescription', `${ctx.base}/transfer`],
    ['Transfer requests', `${ctx.base}/transfers`],
    ['Reminders', `${ctx.base}/reminders`],
  ]);

const refillsText = (p: Prescription): string =>
  p.refillsLeft === 0 ? 'No refills left' : `${p.refillsLeft} refill${p.refillsLeft === 1 ? '' : 's'} left`;

function prescriptionsPage(state: PharmacyState, ctx: AppContext): AppResponse {
  const rows = state.prescriptions
    .map(
      (p) =>
        `<a class="row" href="${ctx.base}/rx/${p.id}"><div class="info"><div class="t">${esc(p.name)}</div><div class="s">${esc(refillsText(p))}</div></div>${
          p.refillsRequested ? '<span class="v">Refill requested</span>' : ''
        }</a>`,
    )
    .join('');
  const body = `${appbar('Pharmacy')}${tabs(ctx, 'rx')}<div class="section">My prescriptions (${state.prescriptions.length})</div>${rows}
<a class="primary" href="${ctx.base}/transfer">Transfer a prescription</a><div class="spacer"></div>${menu(ctx)}`;
  return renderPage({ title: 'Pharmacy', css: CSS, body, ctx, root: true });
}

function prescriptionPage(state: PharmacyState, ctx: AppContext, p: Prescription, toastKind: string): AppResponse {
  const action =
    p.refillsLeft === 0
      ? `<div class="status none">No refills left. Ask your doctor for a new prescription.</div>`
      : p.refillsRequested
        ? `<div class="status">Refill requested &middot; ready tomorrow at ${esc(state.store)}</div>`
        : `<button class="primary" onclick="show('refill')">Request refill</button>`;
  const body = `${appbar('Prescription', { back: true })}
<div class="card"><h2>${esc(p.name)}</h2><div class="d">${esc(p.directions)}</div><div style="font-size:17px">${esc(refillsText(p))}</div></div>
${action}${menu(ctx)}
${confirmDialog('refill', 'Request a refill?', `${p.name} will be ready for pickup at ${state.store} tomorrow.`, 'Request', 'refill()')}
${toastKind === 'refill' ? toast('Refill requested') : ''}`;
  const script = `function refill(){api('refill',{id:${p.id}}).then(r=>{if(r.ok)location.replace(BASE+'/rx/${p.id}?toast=refill')})}`;
  return renderPage({ title: p.name, css: CSS, body, ctx, script });
}

function remindersPage(state: PharmacyState, ctx: AppContext): AppResponse {
  const rows = state.prescriptions
    .map(
      (p) =>
        `<button class="row" role="switch" aria-checked="${p.reminder}" aria-label="${esc(p.name)}" onclick="tog(${p.id},this)"><div class="info"><div class="t">${esc(p.name)}</div><div class="s">Daily at ${esc(p.reminderTime)}</div></div><span class="switch${p.reminder ? ' on' : ''}"></span></button>`,
    )
    .join('');
  const body = `${appbar('Reminders')}${tabs(ctx, 'reminders')}<div class="section">Dose reminders</div>${rows}<div class="spacer"></div>${menu(ctx)}`;
  const script = `function tog(id,el){api('reminder',{id}).then(r=>{if(!r.ok)return;el.setAttribute('aria-checked',String(r.on));el.querySelector('.switch').classList.toggle('on',r.on)})}`;
  return renderPage({ title: 'Reminders', css: CSS, body, ctx, script, root: true });
}

function storePage(state: PharmacyState, ctx: AppContext, toastKind: string): AppResponse {
  const body = `${appbar('My store')}${tabs(ctx, 'store')}
<div class="field"><label>Preferred store</label><button class="pick" onclick="show('store')"><span id="store-v">${esc(state.store)}</span><span>&#9662;</span></button></div>
<div class="hint">Refills are sent to your preferred store.</div>${menu(ctx)}
${pickerDialog('store', 'Preferred store', STORES, state.store, 'pick')}${toastKind === 'store' ? toast('Preferred store updated') : ''}`;
  const script = `function pick(v){api('store',{store:v}).then(r=>{if(r.ok)location.replace(BASE+'/store?toast=store')})}`;
  return renderPage({ title: 'My store', css: CSS, body, ctx, script, root: true });
}

function transferPage(ctx: AppContext): AppResponse {
  const field = (id: string, label: string, hint: string): string =>
    `<div class="field" id="f-${id}"><label for="${id}">${label}</label><input id="${id}" type="text" placeholder="${hint}" autocomplete="off"><div class="ferr" id="e-${id}"></div></div>`;
  const body = `${appbar('Transfer a prescription', { back: true, menu: false })}
<div class="hint">Move a prescription from another pharmacy to us.</div>
${field('medication', 'Medication', 'e.g. Losartan 50 mg')}${field('rx', 'Prescription number', '7 digits, on the label')}${field('from', 'Current pharmacy', 'Pharmacy name')}
<button class="primary" onclick="submitTransfer()">Submit transfer</button><div class="spacer"></div>`;
  const script = `function submitTransfer(){const v=id=>document.getElementById(id).value;
 for(const k of ['medication','rx','from']){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
 api('transfer',{medication:v('medication'),rx:v('rx'),from:v('from')}).then(r=>{if(r.ok){location.replace(BASE+'/transfers?toast=transfer');return}
 for(const [k,m] of Object.entries(r.errors||{})){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}})}`;
  return renderPage({ title: 'Transfer a prescription', css: CSS, body, ctx, script });
}

function transfersPage(state: PharmacyState, ctx: AppContext, toastKind: string): AppResponse {
  const rows = state.transfers
    .map(
      (t) =>
        `<div class="row"><div class="info"><div class="t">${esc(t.medication)}</div><div class="s">Rx ${esc(t.rxNumber)} from ${esc(t.fromPharmacy)}</div></div><span class="v">Pending</span></div>`,
    )
    .join('');
  const body = `${appbar('Transfer requests', { back: true })}<div class="section">Transfer requests (${state.transfers.length})</div>${
    rows || '<div class="empty">No transfer requests</div>'
  }${menu(ctx)}${toastKind === 'transfer' ? toast('Transfer requested') : ''}`;
  return renderPage({ title: 'Transfer requests', css: CSS, body, ctx });
}

function handleApi(state: PharmacyState, action: string, b: Record<string, unknown>): AppResponse {
  state.seq += 1;
  if (action === 'store') {
    const store = str(b.store);
    if (!STORES.includes(store)) return json({ ok: false, error: 'unknown store' }, 400);
    if (store !== state.store) state.storeChanges.push(store);
    state.store = store;
    return json({ ok: true });
  }
  if (action === 'transfer') {
    const medication = str(b.medication).trim();
    const rx = str(b.rx).trim();
    const from = str(b.from).trim();
    const errors: Record<string, string> = {};
    if (!medication) errors.medication = 'Enter the medication';
    if (!/^\d{7}$/.test(rx.replace(/[\s-]/g, ''))) errors.rx = 'Prescription number must be 7 digits';
    if (!from) errors.from = 'Enter the pharmacy';
    if (Object.keys(errors).length) return json({ ok: false, errors });
    state.transfers.push({ medication, rxNumber: rx.replace(/[\s-]/g, ''), fromPharmacy: from });
    return json({ ok: true });
  }
  const p = state.prescriptions.find((x) => x.id === Number(b.id));
  if (!p) return json({ ok: false, error: 'unknown prescription' }, 404);
  switch (action) {
    case 'refill':
      if (p.refillsLeft === 0 || p.refillsRequested) return json({ ok: false, error: 'no refill' });
      p.refillsLeft -= 1;
      p.refillsRequested += 1;
      return json({ ok: true });
    case 'reminder':
      p.reminder = !p.reminder;
      return json({ ok: true, on: p.reminder });
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handlePharmacy(state: PharmacyState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(state, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg] = parts;
  const t = req.query.get('toast') ?? '';
  if (head === undefined) return prescriptionsPage(state, ctx);
  if (head === 'reminders') return remindersPage(state, ctx);
  if (head === 'store') return storePage(state, ctx, t);
  if (head === 'transfer') return transferPage(ctx);
  if (head === 'transfers') return transfersPage(state, ctx, t);
  const p = arg ? state.prescriptions.find((x) => x.id === Number(arg)) : undefined;
  if (head === 'rx' && p) return prescriptionPage(state, ctx, p, t);
  return notFound(CSS);
}
