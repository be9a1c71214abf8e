import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, bottomNav, json, kitCss, notFound, overflowMenu, pickerDialog, renderPage, str, tabBar, toast } from '../kit.js';
import { esc, MONTH_NAMES } from '../shared.js';
import {
  BRAND,
  CATEGORIES,
  claimError,
  claimTypesOf,
  cleanName,
  DELIVERIES,
  dollars,
  isoOf,
  itemError,
  itemPremiumCents,
  liveItems,
  longDay,
  MAIL_ADDRESS,
  methodOf,
  money,
  nextPayment,
  OLDEST_CLAIM_DAY,
  ordinal,
  parseDay,
  parseDollars,
  policyOf,
  shortDay,
  TODAY,
  USER,
  USER_EMAIL,
  weekdayDay,
  type Claim,
  type InsuranceState,
  type Policy,
  type Settings,
} from './state.js';

const ACCENT = '#0b6e6a';
const SOFT = '#d3efec';
const CSS =
  kitCss(ACCENT, SOFT) +
  `
body{background:#f3f6f6}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:64px;display:flex;background:#fff;border-top:1px solid #dbe2e2}
.bnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:3px;font-size:13px;font-weight:bold;color:#56605f}
.bnav a .g{font-size:21px;line-height:22px}
.bnav a.on{color:${ACCENT}}
.spacer{height:150px}
.toast{bottom:84px}
.hello{padding:18px 16px 4px;font-size:22px;font-weight:bold;color:#1d2a29}
.hello .s{font-size:15px;font-weight:normal;color:#56605f;margin-top:4px}
.pcard{display:flex;align-items:center;gap:14px;margin:8px 12px;padding:14px;background:#fff;border-radius:14px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.pcard .info{flex:1;min-width:0}
.pcard .t{font-size:18px;font-weight:bold;color:#1d2a29}
.pcard .s{font-size:14px;color:#56605f;margin-top:3px}
.pic{flex:none;width:46px;height:46px;border-radius:12px;display:flex;align-items:center;justify-content:center;font-size:24px;color:#fff}
.pic.home{background:#3f7d4e}.pic.car{background:#2f5d9e}
.quick{display:grid;grid-template-columns:1fr 1fr;gap:10px;padding:6px 12px}
.quick a,.quick button{display:flex;flex-direction:column;gap:6px;padding:14px;background:#fff;border-radius:14px;font-size:16px;font-weight:bold;color:#1d2a29;text-align:left;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.quick .g{font-size:24px;color:${ACCENT}}
.sub{padding:10px 16px 4px;font-size:15px;color:#4a5453}
.hero{padding:16px;background:#fff;border-bottom:1px solid #e3e8e8}
.hero .t{font-size:15px;color:#4a5453}
.hero h2{margin:4px 0;font-size:21px;color:#1d2a29}
.tabs{display:flex;background:#fff;border-bottom:1px solid #dbe2e2}
.tabs a{flex:1;text-align:center;padding:14px 0 12px;font-size:16px;font-weight:bold;color:#56605f;border-bottom:3px solid transparent}
.tabs a.on{color:${ACCENT};border-bottom-color:${ACCENT}}
.kv{display:flex;justify-content:space-between;gap:16px;padding:14px 16px;background:#fff;border-bottom:1px solid #e8ecec;font-size:16px;width:100%;text-align:left}
.kv .k{color:#3c4645}
.kv .v{font-weight:bold;color:#1d2a29;text-align:right}
.link{display:block;padding:15px 16px;background:#fff;border-bottom:1px solid #e8ecec;font-size:16px;font-weight:bold;color:${ACCENT};width:100%;text-align:left}
.irow{display:flex;align-items:center;gap:12px;min-height:64px;padding:8px 8px 8px 16px;background:#fff;border-bottom:1px solid #e8ecec}
.irow .info{flex:1;min-width:0}
.irow .t{font-size:17px;color:#1d2a29}
.irow .s{font-size:14px;color:#56605f;margin-top:2px}
.irow .rm{height:40px;padding:0 14px;border-radius:20px;border:2px solid #c9d2d1;font-size:15px;font-weight:bold;color:#a3312b}
.banner{margin:10px 12px;padding:12px 14px;border-radius:10px;background:#fff4d6;color:#5c4400;font-size:15px}
.banner.ok{background:#dcf3e4;color:#1e5631}
.chips{display:flex;flex-wrap:wrap;gap:8px;padding:10px 12px 4px}
.chip{display:inline-flex;align-items:center}
.drow{display:flex;align-items:center;gap:14px;width:100%;min-height:66px;padding:8px 16px;background:#fff;border-bottom:1px solid #e8ecec;text-align:left}
.drow .doc{flex:none;width:38px;height:46px;border-radius:6px;background:#d9534f;color:#fff;font-size:11px;font-weight:bold;display:flex;align-items:center;justify-content:center}
.drow .info{flex:1;min-width:0}
.drow .t{font-size:17px;color:#1d2a29}
.drow .s{font-size:14px;color:#56605f;margin-top:2px}
.crow{display:block;padding:12px 16px;background:#fff;border-bottom:1px solid #e8ecec}
.crow .t{font-size:17px;font-weight:bold;color:#1d2a29}
.crow .s{font-size:14px;color:#56605f;margin-top:3px}
.badge{display:inline-block;padding:2px 8px;border-radius:10px;font-size:13px;font-weight:bold;background:#e3e8e8;color:#3c4645}
.badge.open{background:#fff0c2;color:#6b4d00}
.badge.done{background:#dcf3e4;color:#1e5631}
.step{padding:14px 16px 0;font-size:14px;font-weight:bold;color:${ACCENT};text-transform:uppercase;letter-spacing:.4px}
.q{padding:4px 16px 8px;font-size:20px;font-weight:bold;color:#1d2a29}
.opts{background:#fff}
.opt{display:flex;align-items:center;gap:14px;width:100%;min-height:58px;padding:10px 16px;border-bottom:1px solid #e8ecec;text-align:left;font-size:17px}
.opt .rad{width:22px;height:22px;border-radius:11px;border:2px solid #868e96;flex:none}
.opt.sel .rad{border:7px solid ${ACCENT}}
.opt .info{flex:1;min-width:0}
.opt .s{font-size:14px;color:#56605f;margin-top:2px}
.opt .cur{font-size:13px;font-weight:bold;color:${ACCENT}}
.cal{background:#fff;padding:6px 10px 10px;margin:0 12px 10px;border-radius:12px}
.cal h3{margin:6px 4px 8px;font-size:17px;color:#1d2a29}
.cal .grid{display:grid;grid-template-columns:repeat(7,1fr);gap:4px;text-align:center}
.cal .wd{font-size:13px;color:#6a7473;font-weight:bold;padding:2px 0}
.cal .day{height:40px;border-radius:20px;font-size:16px;color:#1d2a29}
.cal .day:disabled{color:#bcc4c3}
.cal .day.today{border:2px solid ${ACCENT}}
.cal .day.sel{background:${ACCENT};color:#fff}
.picked{padding:2px 16px 8px;font-size:15px;color:#3c4645}
.money{position:relative}
.money span{position:absolute;left:14px;top:13px;font-size:18px;color:#56605f}
.money input{padding-left:30px!important}
.catchips{display:flex;flex-wrap:wrap;gap:8px}
.hint{font-size:14px;color:#56605f;margin-top:6px}
.panel{position:fixed;left:0;right:0;bottom:0;top:28px;z-index:40;background:#f3f6f6;overflow:auto}
.panel .appbar{top:0}
.dialog .opt{border-bottom:none;padding:12px 4px}
.sheet .head{padding:14px 20px 4px}
.sheet .head .t{padding:0;font-size:19px;font-weight:bold;color:#1d2a29}
.sheet .head .s{font-size:15px;color:#56605f;margin-top:2px}
.sheet .q2{padding:12px 20px 4px;font-size:16px;font-weight:bold;color:#3c4645}
.sheet .opt{padding:12px 20px;border-bottom:none}
.sheet .primary{width:calc(100% - 24px);padding:0;text-align:center}
.note{padding:4px 20px;font-size:14px;color:#56605f}
`;

type Tab = 'home' | 'policies' | 'claims' | 'payments';

const nav = (ctx: AppContext, on: Tab | ''): string =>
  bottomNav<Tab | ''>(
    [
      { id: 'home', label: 'Home', glyph: '&#8962;', href: `${ctx.base}/` },
      { id: 'policies', label: 'Policies', glyph: '&#9730;', href: `${ctx.base}/policies` },
      { id: 'claims', label: 'Claims', glyph: '&#9998;', href: `${ctx.base}/claims` },
      { id: 'payments', label: 'Payments', glyph: '&#9636;', href: `${ctx.base}/payments` },
    ],
    on,
  );

const js = (s: string): string => JSON.stringify(s).replace(/</g, '\\u003c');
const policyIcon = (p: Policy): string => `<span class="pic ${p.kind}" aria-hidden="true">${p.kind === 'home' ? '&#8962;' : '&#9951;'}</span>`;

const SHARED_JS = `
function say(t){let el=document.getElementById('toast');if(!el){el=document.createElement('div');el.id='toast';el.className='toast';el.setAttribute('role','status');document.body.appendChild(el)}
 el.textContent=t;el.hidden=false;clearTimeout(window.__st);window.__st=setTimeout(()=>{el.hidden=true},4000)}
function reload(){location.replace(location.pathname+location.search)}
function pick(group,b){for(const o of document.querySelectorAll('[data-group="'+group+'"]')){const s=o===b;o.classList.toggle('sel',s);o.classList.toggle('on',s);o.setAttribute('aria-checked',String(s))}}
let DOC={};
function openDoc(b){DOC={policy:b.dataset.policy,doc:b.dataset.doc};document.getElementById('ds-t').textContent=b.dataset.doc;document.getElementById('ds-s').textContent=b.dataset.label;
 document.getElementById('ds-err').textContent='';show('docsheet')}
function pickDelivery(b){DOC.delivery=b.dataset.v;pick('delivery',b)}
let dbusy=false;function sendDoc(){const sel=document.querySelector('[data-group="delivery"].sel');if(!sel){document.getElementById('ds-err').textContent='Choose how to send it';return}
 if(dbusy)return;dbusy=true;api('request-doc',{policy:DOC.policy,document:DOC.doc,delivery:sel.dataset.v}).then(r=>{dbusy=false;if(r.ok){reload();return}document.getElementById('ds-err').textContent=r.error||'Could not send it'})}
`;

/** The bottom sheet that sends a copy of a document (filled in when a document is tapped). */
const docSheet = (st: InsuranceState): string => {
  const def = st.settings.paperless ? 'Email' : '';
  const opt = (v: string, sub: string): string =>
    `<button class="opt${v === def ? ' sel' : ''}" role="radio" aria-checked="${v === def}" data-group="delivery" data-v="${v}" onclick="pickDelivery(this)"><span class="rad"></span><div class="info"><div>${v}</div><div class="s">${esc(sub)}</div></div></button>`;
  return `<div id="docsheet" class="scrim bottom" data-overlay hidden onclick="if(event.target===this)hide('docsheet')"><div class="sheet" role="dialog" aria-label="Get a copy"><div class="head"><div class="t" id="ds-t"></div><div class="s" id="ds-s"></div></div>
<div class="q2">How should we send it?</div>${opt('Email', USER_EMAIL)}${opt('Post', MAIL_ADDRESS)}<div class="note">Post takes 5–7 business days.</div><div class="error" id="ds-err"></div>
<button class="primary" id="ds-send" onclick="sendDoc()">Send copy</button><button onclick="hide('docsheet')" style="text-align:center;font-weight:bold;color:${ACCENT}">Cancel</button></div></div>`;
};

const docRow = (p: Policy, doc: string, issued: string): string =>
  `<button class="drow" data-policy="${p.id}" data-doc="${esc(doc)}" data-label="${esc(p.label)}" onclick="openDoc(this)"><span class="doc" aria-hidden="true">PDF</span><div class="info"><div class="t">${esc(doc)}</div><div class="s">${esc(p.label)} · Issued ${esc(issued)}</div></div></button>`;

interface PageOpts {
  title: string;
  body: string;
  tab?: Tab | '';
  back?: boolean;
  script?: string;
  root?: boolean;
  actions?: string;
  /** False on the steps of a flow (a form and its review): no bottom tabs. */
  nav?: boolean;
}

function page(st: InsuranceState, ctx: AppContext, o: PageOpts): AppResponse {
  const flash = st.flash;
  st.flash = '';
  const menu: (readonly [string, string])[] = [
    ['Documents', `${ctx.base}/documents`],
    ['Account', `${ctx.base}/account`],
  ];
  const bar = appbar(o.title, { back: o.back ?? false, ...(o.actions ? { actions: o.actions } : {}) });
  const body = `${bar}${o.body}<div class="spacer"></div>${o.nav === false ? '' : nav(ctx, o.tab ?? '')}${overflowMenu(menu)}${docSheet(st)}${flash ? toast(flash) : ''}`;
  return renderPage({ title: o.title, css: CSS, body, ctx, script: SHARED_JS + (o.script ?? ''), root: o.root ?? false });
}

const policyLine = (p: Policy): string => `${p.product} · ${p.number}`;
const status = (c: Claim): string => `<span class="badge ${c.status === 'Settled' ? 'done' : c.status === 'Withdrawn' ? '' : 'open'}">${c.status}</span>`;
const isOpen = (c: Claim): boolean => c.status === 'Submitted' || c.status === 'In review';

function homePage(st: InsuranceState, ctx: AppContext): AppResponse {
  const cards = st.policies
    .map((p) => `<a class="pcard" href="${ctx.base}/policy/${p.id}">${policyIcon(p)}<div class="info"><div class="t">${esc(p.label)}</div><div class="s">${esc(policyLine(p))}</div><div class="s">Renews ${esc(p.renews)}</div></div><span aria-hidden="true">&#8250;</span></a>`)
    .join('');
  const open = st.claims.filter(isOpen).length;
  const body = `<div class="hello">Good morning, ${esc(USER.split(' ')[0] ?? USER)}<div class="s">${open ? `You have ${open} open claim${open === 1 ? '' : 's'}` : 'No open claims'}</div></div>
<div class="section">Your policies</div>${cards}
<div class="section">Quick actions</div><div class="quick">
<a href="${ctx.base}/claims/new" id="q-claim"><span class="g" aria-hidden="true">&#9998;</span>Make a claim</a>
<a href="${ctx.base}/documents" id="q-docs"><span class="g" aria-hidden="true">&#128462;&#xFE0E;</span>Documents</a>
<a href="${ctx.base}/payments" id="q-pay"><span class="g" aria-hidden="true">&#9636;</span>Payment details</a>
<button id="q-road" onclick="say('Roadside help: call 1-800-555-0199, day or night')"><span class="g" aria-hidden="true">&#9951;</span>Roadside help</button></div>`;
  return page(st, ctx, { title: BRAND, body, tab: 'home', root: true, actions: `<a class="icon" aria-label="Account" href="${ctx.base}/account">&#9787;</a>` });
}

function policiesPage(st: InsuranceState, ctx: AppContext): AppResponse {
  const group = (kind: 'home' | 'car', title: string): string =>
    `<div class="section">${title}</div>${st.policies
      .filter((p) => p.kind === kind)
      .map(
        (p) =>
          `<a class="pcard" href="${ctx.base}/policy/${p.id}">${policyIcon(p)}<div class="info"><div class="t">${esc(p.label)}</div><div class="s">${esc(p.detail)}</div><div class="s">${esc(p.number)} · ${money(p.premiumCents)} a month</div></div><span aria-hidden="true">&#8250;</span></a>`,
      )
      .join('')}`;
  const body = `<div class="sub">Tap a policy to see its cover and documents.</div>${group('home', 'Home &amp; contents')}${group('car', 'Car')}`;
  return page(st, ctx, { title: 'Policies', body, tab: 'policies', root: true });
}

const TABS = ['overview', 'cover', 'documents'] as const;
type PolicyTab = (typeof TABS)[number];

function policyPage(st: InsuranceState, ctx: AppContext, p: Policy, tab: PolicyTab): AppResponse {
  const href = (t: PolicyTab): string => `${ctx.base}/policy/${p.id}${t === 'overview' ? '' : `?tab=${t}`}`;
  const tabs = tabBar(
    [
      ['overview', 'Overview', href('overview')],
      ['cover', 'Cover', href('cover')],
      ['documents', 'Documents', href('documents')],
    ],
    tab,
  );
  const hero = `<div class="hero"><div class="t">${esc(p.product)}</div><h2>${esc(p.label)}</h2><div class="t">${esc(p.detail)}</div></div>`;
  let body: string;
  let script = '';
  if (tab === 'overview') {
    const m = methodOf(st, p.methodId);
    body = `<div class="section">Summary</div>
<div class="kv"><span class="k">Policy number</span><span class="v">${esc(p.number)}</span></div>
<div class="kv"><span class="k">Status</span><span class="v">Active</span></div>
<div class="kv"><span class="k">Renews</span><span class="v">${esc(p.renews)}</span></div>
<div class="kv"><span class="k">Premium</span><span class="v">${money(p.premiumCents)} a month</span></div>
<div class="kv"><span class="k">Deductible</span><span class="v">${dollars(p.deductible)}</span></div>
<div class="kv"><span class="k">Taken on</span><span class="v">the ${ordinal(p.payDay)} of each month</span></div>
<div class="kv"><span class="k">Paid with</span><span class="v">${esc(m?.label ?? '—')}</span></div>
<a class="link" id="to-pay" href="${ctx.base}/payments/${p.id}">Manage payments</a>
<a class="link" id="to-claim" href="${ctx.base}/claims/new/${p.id}">Make a claim on this policy</a>`;
  } else if (tab === 'cover') {
    const rows = p.cover.map(([k, v]) => `<div class="kv"><span class="k">${esc(k)}</span><span class="v">${esc(v)}</span></div>`).join('');
    if (p.kind === 'home') {
      const items = liveItems(p)
        .map(
          (i) =>
            `<div class="irow" data-item="${i.id}" data-name="${esc(i.name)}"><div class="info"><div class="t">${esc(i.name)}</div><div class="s">${esc(i.category)} · ${dollars(i.value)}</div></div><button class="rm" aria-label="Remove ${esc(i.name)}" onclick="askRemove(this)">Remove</button></div>`,
        )
        .join('');
      body = `<div class="section">What's covered</div>${rows}
<div class="section">Valuables</div><div class="banner">Single items worth more than $2,500 must be listed here to be fully covered, at home and away.</div>
<a class="link" id="add-item" href="${ctx.base}/policy/${p.id}/add-item">+ Add a valuable</a>
${items || '<div class="empty">No valuables listed yet</div>'}
<div id="rmdlg" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Remove this item?"><h2>Remove this item?</h2><p id="rm-text"></p>
<div class="acts"><button onclick="hide('rmdlg')">Cancel</button><button id="rm-ok" onclick="removeIt()">Remove</button></div></div></div>`;
      script = `const POLICY=${js(p.id)};let RM=0;
function askRemove(b){const r=b.closest('[data-item]');RM=Number(r.dataset.item);document.getElementById('rm-text').textContent='“'+r.dataset.name+'” will no longer be listed on this policy. Your premium goes down from the next payment.';show('rmdlg')}
function removeIt(){api('remove-item',{policy:POLICY,item:RM}).then(r=>{if(r.ok)reload()})}`;
    } else {
      const drivers = p.drivers.map((d, i) => `<div class="irow"><div class="info"><div class="t">${esc(d)}</div><div class="s">${i === 0 ? 'Main driver (you)' : 'Named driver'}</div></div></div>`).join('');
      body = `<div class="section">What's covered</div>${rows}
<div class="section">Named drivers</div>${drivers}
<button class="link" id="add-driver" onclick="say('To add a driver, call us on 1-800-555-0142')">+ Add a driver</button>`;
    }
  } else {
    const issued = (d: string): string => (d === 'Renewal invitation' ? 'May 14, 2025' : d === 'Insurance ID card' ? 'Apr 2, 2025' : 'Mar 3, 2025');
    body = `<div class="sub">Documents for this policy. Tap one to get a copy.</div>${p.documents.map((d) => docRow(p, d, issued(d))).join('')}`;
  }
  return page(st, ctx, { title: p.label, body: hero + tabs + body, tab: 'policies', back: true, script });
}

function addItemPage(st: InsuranceState, ctx: AppContext, p: Policy): AppResponse {
  const chips = CATEGORIES.map((c) => `<button class="chip" role="radio" aria-checked="false" data-group="cat" data-v="${esc(c)}" onclick="pick('cat',this)">${esc(c)}</button>`).join('');
  const body = `<div class="sub">Add an item to the contents cover of <b>${esc(p.label)}</b>.</div>
<div class="field"><label>What is it?</label><input id="iname" type="text" maxlength="80" autocomplete="off" placeholder="Item name"><div class="hint">For example: Gold bracelet, or the make and model.</div></div>
<div class="field"><label>Category</label><div class="catchips" role="radiogroup">${chips}</div></div>
<div class="field"><label>What would it cost to replace?</label><div class="money"><span aria-hidden="true">$</span><input id="ivalue" type="text" inputmode="decimal" autocomplete="off" placeholder="Replacement value"></div><div class="hint">What it would cost to replace it new today.</div></div>
<div class="error" id="ierr"></div>
<button class="primary" id="icontinue" onclick="review()">Continue</button>
<div id="iconfirm" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Add to your cover?"><h2>Add to your cover?</h2><p id="ic-text"></p>
<div class="acts"><button onclick="hide('iconfirm')">Cancel</button><button id="ic-ok" onclick="addIt()">Add item</button></div></div></div>`;
  const script = `const POLICY=${js(p.id)},LABEL=${js(p.label)};
function vals(){const c=document.querySelector('[data-group="cat"].sel');return{name:document.getElementById('iname').value.trim().replace(/\\s+/g,' '),category:c?c.dataset.v:'',value:document.getElementById('ivalue').value}}
function dollarsOf(s){s=s.trim().replace(/^\\$\\s*/,'').replace(/,/g,'');return /^\\d+(\\.\\d{1,2})?$/.test(s)?Math.round(Number(s)):NaN}
function review(){const v=vals();const e=document.getElementById('ierr');const n=dollarsOf(v.value);
 if(!v.name){e.textContent='Enter the item’s name';return}if(!v.category){e.textContent='Choose a category';return}if(!(n>0)){e.textContent='Enter the replacement value in dollars';return}
 e.textContent='';const extra=Math.max(50,Math.round(n*0.05));
 document.getElementById('ic-text').textContent='“'+v.name+'” ('+v.category+', $'+n.toLocaleString('en-US')+') will be listed on '+LABEL+'. Your premium goes up by $'+(extra/100).toFixed(2)+' a month.';show('iconfirm')}
let ibusy=false;function addIt(){if(ibusy)return;ibusy=true;const v=vals();api('add-item',{policy:POLICY,name:v.name,category:v.category,value:v.value}).then(r=>{ibusy=false;if(r.ok){location.replace(BASE+'/policy/'+POLICY+'?tab=cover');return}hide('iconfirm');document.getElementById('ierr').textContent=r.error||'Could not add the item'})}`;
  return page(st, ctx, { title: 'Add a valuable', body, tab: 'policies', back: true, script, nav: false });
}

function documentsPage(st: InsuranceState, ctx: AppContext, filter: string): AppResponse {
  const sel = policyOf(st, filter);
  const chips = `<div class="chips" role="tablist"><a class="chip${sel ? '' : ' on'}" role="tab" aria-selected="${!sel}" href="${ctx.base}/documents">All</a>${st.policies
    .map((p) => `<a class="chip${sel?.id === p.id ? ' on' : ''}" role="tab" aria-selected="${sel?.id === p.id}" href="${ctx.base}/documents?p=${p.id}">${esc(p.label)}</a>`)
    .join('')}</div>`;
  const issued = (d: string): string => (d === 'Renewal invitation' ? 'May 14, 2025' : d === 'Insurance ID card' ? 'Apr 2, 2025' : 'Mar 3, 2025');
  const rows = st.policies
    .filter((p) => !sel || p.id === sel.id)
    .flatMap((p) => p.documents.map((d) => docRow(p, d, issued(d))))
    .join('');
  const recent = [...st.requests]
    .sort((a, b) => b.id - a.id)
    .slice(0, 5)
    .map((r) => {
      const p = policyOf(st, r.policyId);
      return `<div class="irow"><div class="info"><div class="t">${esc(r.document)}</div><div class="s">${esc(p?.label ?? '')} · by ${r.delivery.toLowerCase()} · ${esc(shortDay(r.day))}</div></div></div>`;
    })
    .join('');
  const body = `${chips}<div class="sub">Tap a document to get a copy.</div>${rows}<div class="section">Recent requests</div>${recent || '<div class="empty">No copies requested yet</div>'}`;
  return page(st, ctx, { title: 'Documents', body, back: true });
}

function claimsPage(st: InsuranceState, ctx: AppContext): AppResponse {
  const row = (c: Claim): string => {
    const p = policyOf(st, c.policyId);
    return `<a class="crow" href="${ctx.base}/claim/${c.id}" data-claim="${esc(c.ref)}"><div class="t">${esc(c.type)}</div><div class="s">${esc(p?.label ?? '')} · ${esc(c.ref)}</div><div class="s">Filed ${esc(shortDay(c.filed))} · ${status(c)}</div></a>`;
  };
  const byNew = (a: Claim, b: Claim): number => b.filed.localeCompare(a.filed) || b.id - a.id;
  const open = st.claims.filter(isOpen).sort(byNew);
  const past = st.claims.filter((c) => !isOpen(c)).sort(byNew);
  const body = `<a class="primary" id="new-claim" href="${ctx.base}/claims/new">Start a new claim</a>
<div class="section">Open claims</div>${open.map(row).join('') || '<div class="empty">No open claims</div>'}
<div class="section">Past claims</div>${past.map(row).join('') || '<div class="empty">No past claims</div>'}`;
  return page(st, ctx, { title: 'Claims', body, tab: 'claims', root: true });
}

function claimPage(st: InsuranceState, ctx: AppContext, c: Claim, fresh: boolean): AppResponse {
  const p = policyOf(st, c.policyId);
  const banner = fresh && c.status === 'Submitted' ? `<div class="banner ok" id="submitted"><b>Claim submitted.</b> Your reference is ${esc(c.ref)}. A claims handler will call you within 2 business days.</div>` : '';
  const body = `${banner}<div class="section">Claim details</div>
<div class="kv"><span class="k">Reference</span><span class="v">${esc(c.ref)}</span></div>
<div class="kv"><span class="k">Policy</span><span class="v">${esc(p?.label ?? '')}</span></div>
<div class="kv"><span class="k">Incident</span><span class="v">${esc(c.type)}</span></div>
<div class="kv"><span class="k">Date of incident</span><span class="v">${esc(longDay(c.date))}</span></div>
<div class="kv"><span class="k">Estimated cost</span><span class="v">${dollars(c.amount)}</span></div>
<div class="kv"><span class="k">Status</span><span class="v">${c.status}</span></div>
${c.description ? `<div class="section">Description</div><div class="sub" style="background:#fff;padding:14px 16px">${esc(c.description)}</div>` : ''}
${isOpen(c) ? `<button class="link" id="withdraw" style="color:#a3312b" onclick="show('wd')">Withdraw claim</button>` : ''}
<div id="wd" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Withdraw this claim?"><h2>Withdraw this claim?</h2><p>We’ll stop working on ${esc(c.ref)}. You can’t undo this.</p>
<div class="acts"><button onclick="hide('wd')">Keep claim</button><button id="wd-ok" onclick="api('withdraw',{claim:${c.id}}).then(r=>{if(r.ok)location.replace(BASE+'/claim/${c.id}')})">Withdraw</button></div></div></div>`;
  return page(st, ctx, { title: `Claim ${c.ref}`, body, tab: 'claims', back: true });
}

function claimPolicyPage(st: InsuranceState, ctx: AppContext): AppResponse {
  const opts = st.policies
    .map(
      (p) =>
        `<button class="opt" role="radio" aria-checked="false" data-group="pol" data-v="${p.id}" onclick="pick('pol',this)"><span class="rad"></span><div class="info"><div>${esc(p.label)}</div><div class="s">${esc(p.product)} · ${esc(p.number)}</div></div></button>`,
    )
    .join('');
  const body = `<div class="step">Step 1 of 3</div><div class="q">Which policy is this claim for?</div><div class="opts" role="radiogroup">${opts}</div>
<div class="error" id="perr"></div><button class="primary" id="pnext" onclick="next()">Next</button>`;
  const script = `function next(){const s=document.querySelector('[data-group="pol"].sel');if(!s){document.getElementById('perr').textContent='Choose a policy';return}location.href=BASE+'/claims/new/'+s.dataset.v}`;
  return page(st, ctx, { title: 'New claim', body, tab: 'claims', back: true, script, nav: false });
}

/** One month of the incident calendar; days from OLDEST_CLAIM_DAY to TODAY can be picked. */
function monthGrid(year: number, month: number): string {
  const first = new Date(Date.UTC(year, month, 1));
  const lead = (first.getUTCDay() + 6) % 7;
  const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const cells = ['M', 'T', 'W', 'T', 'F', 'S', 'S'].map((d) => `<div class="wd" aria-hidden="true">${d}</div>`);
  for (let i = 0; i < lead; i++) cells.push('<div></div>');
  for (let d = 1; d <= days; d++) {
    const iso = isoOf(year, month, d);
    const ok = iso >= OLDEST_CLAIM_DAY && iso <= TODAY;
    cells.push(`<button class="day${iso === TODAY ? ' today' : ''}" data-group="day" data-v="${iso}" aria-label="${esc(weekdayDay(iso))}" role="radio" aria-checked="false"${ok ? ' onclick="pickDay(this)"' : ' disabled'}>${d}</button>`);
  }
  return `<div class="cal"><h3>${MONTH_NAMES[month] ?? ''} ${year}</h3><div class="grid">${cells.join('')}</div></div>`;
}

function claimFormPage(st: InsuranceState, ctx: AppContext, p: Policy): AppResponse {
  const types = claimTypesOf(p.kind)
    .map((t) => `<button class="opt" role="radio" aria-checked="false" data-group="type" data-v="${esc(t)}" onclick="pick('type',this)"><span class="rad"></span><div class="info">${esc(t)}</div></button>`)
    .join('');
  const body = `<div class="step">Step 2 of 3 · ${esc(p.label)}</div><div class="q">What happened?</div><div class="opts" role="radiogroup">${types}</div>
<div class="q" style="padding-top:16px">When did it happen?</div><div class="sub" style="padding-top:0">You can claim online for anything in the last 30 days.</div>
${monthGrid(2025, 4)}${monthGrid(2025, 5)}<div class="picked" id="picked">No day picked yet</div>
<div class="field"><label>How much will it cost?</label><div class="money"><span aria-hidden="true">$</span><input id="amount" type="text" inputmode="decimal" autocomplete="off" placeholder="Estimated cost"></div><div class="hint">Your best guess is fine; the handler will confirm it.</div></div>
<div class="field"><label for="desc">Describe what happened (optional)</label><textarea id="desc" maxlength="500" placeholder="Where, how and what was damaged"></textarea></div>
<div class="error" id="cerr"></div><button class="primary" id="creview" onclick="review()">Review claim</button>
<div id="review" class="panel" data-overlay hidden><header class="appbar"><button class="icon" aria-label="Back" onclick="hide('review')">&larr;</button><h1>New claim</h1></header>
<div class="step">Step 3 of 3</div><div class="q">Check your claim</div>
<div class="kv"><span class="k">Policy</span><span class="v">${esc(p.label)}</span></div>
<div class="kv"><span class="k">What happened</span><span class="v" id="r-type"></span></div>
<div class="kv"><span class="k">Date</span><span class="v" id="r-date"></span></div>
<div class="kv"><span class="k">Estimated cost</span><span class="v" id="r-amount"></span></div>
<div class="kv"><span class="k">Description</span><span class="v" id="r-desc"></span></div>
<div class="sub">By submitting, you confirm the details are true to the best of your knowledge.</div><div class="error" id="serr"></div>
<button class="primary" id="csubmit" onclick="submitClaim()">Submit claim</button><button class="link" id="cedit" style="text-align:center" onclick="hide('review');window.scrollTo(0,0)">Edit</button></div>`;
  const script = `const POLICY=${js(p.id)};
function pickDay(b){pick('day',b);document.getElementById('picked').textContent='Picked: '+b.getAttribute('aria-label')}
function dollarsOf(s){s=s.trim().replace(/^\\$\\s*/,'').replace(/,/g,'');return /^\\d+(\\.\\d{1,2})?$/.test(s)?Math.round(Number(s)):NaN}
function vals(){const t=document.querySelector('[data-group="type"].sel'),d=document.querySelector('[data-group="day"].sel');return{type:t?t.dataset.v:'',date:d?d.dataset.v:'',dateLabel:d?d.getAttribute('aria-label'):'',amount:document.getElementById('amount').value,description:document.getElementById('desc').value.trim()}}
function review(){const v=vals();const e=document.getElementById('cerr');const n=dollarsOf(v.amount);
 if(!v.type){e.textContent='Choose what happened';return}if(!v.date){e.textContent='Pick the day it happened';return}if(!(n>0)){e.textContent='Enter the estimated cost in dollars';return}e.textContent='';
 document.getElementById('r-type').textContent=v.type;document.getElementById('r-date').textContent=v.dateLabel;document.getElementById('r-amount').textContent='$'+n.toLocaleString('en-US');document.getElementById('r-desc').textContent=v.description||'—';
 show('review');document.getElementById('review').scrollTop=0}
let cbusy=false;function submitClaim(){if(cbusy)return;cbusy=true;const v=vals();api('claim',{policy:POLICY,type:v.type,date:v.date,amount:v.amount,description:v.description}).then(r=>{cbusy=false;if(r.ok){location.replace(BASE+'/claim/'+r.id+'?new=1');return}document.getElementById('serr').textContent=r.error||'Could not submit the claim'})}`;
  return page(st, ctx, { title: 'New claim', body, tab: 'claims', back: true, script, nav: false });
}

function paymentsPage(st: InsuranceState, ctx: AppContext): AppResponse {
  const rows = [...st.policies]
    .sort((a, b) => nextPayment(a.payDay).localeCompare(nextPayment(b.payDay)))
    .map(
      (p) =>
        `<a class="pcard" href="${ctx.base}/payments/${p.id}">${policyIcon(p)}<div class="info"><div class="t">${esc(p.label)}</div><div class="s">${money(p.premiumCents)} on ${esc(shortDay(nextPayment(p.payDay)))}</div><div class="s">${esc(methodOf(st, p.methodId)?.label ?? '')}</div></div><span aria-hidden="true">&#8250;</span></a>`,
    )
    .join('');
  const methods = st.methods.map((m) => `<div class="irow"><div class="info"><div class="t">${esc(m.label)}</div><div class="s">${esc(m.sub)}</div></div></div>`).join('');
  const body = `<div class="section">Upcoming payments</div>${rows}<div class="section">Saved payment methods</div>${methods}
<button class="link" id="add-method" onclick="say('Adding a payment method isn’t available in the app right now')">+ Add a payment method</button>`;
  return page(st, ctx, { title: 'Payments', body, tab: 'payments', root: true });
}

const DAYS = Array.from({ length: 28 }, (_, i) => `${ordinal(i + 1)} of the month`);

function payPolicyPage(st: InsuranceState, ctx: AppContext, p: Policy): AppResponse {
  const m = methodOf(st, p.methodId);
  const next = nextPayment(p.payDay);
  const [ny, nm] = [Number(next.slice(0, 4)), Number(next.slice(5, 7)) - 1];
  const history = [1, 2, 3]
    .map((back) => {
      const d = new Date(Date.UTC(ny, nm - back, p.payDay));
      return `<div class="irow"><div class="info"><div class="t">${money(p.premiumCents)}</div><div class="s">Paid ${esc(longDay(isoOf(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())))}</div></div><span class="badge done">Paid</span></div>`;
    })
    .join('');
  const body = `<div class="hero"><div class="t">${esc(p.product)} · ${esc(p.number)}</div><h2>${esc(p.label)}</h2></div>
<div class="kv"><span class="k">Monthly premium</span><span class="v">${money(p.premiumCents)}</span></div>
<div class="kv"><span class="k">Next payment</span><span class="v">${esc(longDay(nextPayment(p.payDay)))}</span></div>
<button class="kv" id="payday" onclick="show('daypick')"><span class="k">Payment day</span><span class="v" style="color:${ACCENT}">${ordinal(p.payDay)} of the month &#9662;</span></button>
<div class="kv"><span class="k">Paid with</span><span class="v" id="method">${esc(m?.label ?? '—')}</span></div>
<a class="link" id="change-method" href="${ctx.base}/payments/${p.id}/method">Change payment method</a>
<div class="section">Payment history</div>${history}
${pickerDialog('daypick', 'Payment day', DAYS, `${ordinal(p.payDay)} of the month`, 'setDay')}`;
  const script = `function setDay(v){api('payday',{policy:${js(p.id)},day:parseInt(v,10)}).then(r=>{if(r.ok)reload()})}`;
  return page(st, ctx, { title: `${p.label} payments`, body, tab: 'payments', back: true, script });
}

function methodPage(st: InsuranceState, ctx: AppContext, p: Policy): AppResponse {
  const opts = st.methods
    .map((m) => {
      const cur = m.id === p.methodId;
      return `<button class="opt${cur ? ' sel' : ''}" role="radio" aria-checked="${cur}" data-group="m" data-v="${m.id}" data-label="${esc(m.label)}" onclick="pick('m',this)"><span class="rad"></span><div class="info"><div>${esc(m.label)}</div><div class="s">${esc(m.sub)}</div></div>${cur ? '<span class="cur">Current</span>' : ''}</button>`;
    })
    .join('');
  const next = longDay(nextPayment(p.payDay));
  const body = `<div class="q" style="padding-top:16px">Choose how to pay</div><div class="sub" style="padding-top:0">for ${esc(p.label)} (${esc(p.number)})</div><div class="opts" role="radiogroup">${opts}</div>
<button class="link" id="add-card" onclick="say('Adding a card isn’t available in the app right now')">+ Add a new card</button>
<button class="primary" id="msave" onclick="save()">Save</button>
<div id="mconfirm" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Change payment method?"><h2>Change payment method?</h2><p id="mc-text"></p>
<div class="acts"><button onclick="hide('mconfirm')">Cancel</button><button id="mc-ok" onclick="changeIt()">Change method</button></div></div></div>`;
  const script = `const POLICY=${js(p.id)},CUR=${js(p.methodId)},LABEL=${js(p.label)},NEXT=${js(next)};
function save(){const s=document.querySelector('[data-group="m"].sel');if(!s||s.dataset.v===CUR){say('That’s already how you pay for '+LABEL);return}
 document.getElementById('mc-text').textContent='From your next payment on '+NEXT+', '+LABEL+' will be paid with '+s.dataset.label+'.';show('mconfirm')}
let mbusy=false;function changeIt(){const s=document.querySelector('[data-group="m"].sel');if(mbusy||!s)return;mbusy=true;api('method',{policy:POLICY,method:s.dataset.v}).then(r=>{mbusy=false;if(r.ok){location.replace(BASE+'/payments/'+POLICY);return}hide('mconfirm');say(r.error||'Could not change it')})}`;
  return page(st, ctx, { title: 'Payment method', body, tab: 'payments', back: true, script, nav: false });
}

const SWITCHES: readonly (readonly [keyof Settings, string, string])[] = [
  ['paperless', 'Paperless documents', 'Get policy documents by email instead of post'],
  ['reminders', 'Payment reminders', 'A notification 3 days before each payment'],
  ['claimUpdates', 'Claim updates', 'Notify me when a claim changes status'],
];

function accountPage(st: InsuranceState, ctx: AppContext): AppResponse {
  const sw = ([k, label, sub]: readonly [keyof Settings, string, string]): string => {
    const on = st.settings[k];
    return `<button class="row" role="switch" aria-checked="${on}" data-k="${k}" onclick="sw(this)"><div class="info"><div class="t">${esc(label)}</div><div class="s">${esc(sub)}</div></div><span class="switch${on ? ' on' : ''}"></span></button>`;
  };
  const body = `<div class="section">Profile</div>
<div class="kv"><span class="k">Name</span><span class="v">${esc(USER)}</span></div>
<div class="kv"><span class="k">Email</span><span class="v">${esc(USER_EMAIL)}</span></div>
<div class="kv"><span class="k">Mailing address</span><span class="v">${esc(MAIL_ADDRESS)}</span></div>
<div class="section">Preferences</div>${SWITCHES.map(sw).join('')}
<button class="link" id="signout" onclick="say('You can’t sign out in this demo')">Sign out</button>`;
  const script = `function sw(el){const on=el.getAttribute('aria-checked')!=='true';api('setting',{key:el.dataset.k,value:on}).then(r=>{if(!r.ok)return;el.setAttribute('aria-checked',String(on));el.querySelector('.switch').classList.toggle('on',on)})}`;
  return page(st, ctx, { title: 'Account', body, back: true, script });
}

function claimRef(st: InsuranceState): string {
  const n = 260000 + ((st.seed * 7919 + st.claims.length * 131) % 9000) * 10 + st.claims.length;
  return `CLM-${n}`;
}

function handleApi(st: InsuranceState, action: string, b: Record<string, unknown>): AppResponse {
  st.seq += 1;
  const policy = policyOf(st, str(b.policy));
  switch (action) {
    case 'add-item': {
      if (!policy || policy.kind !== 'home') return json({ ok: false, error: 'Valuables can only be listed on a home policy' }, 404);
      const name = cleanName(str(b.name));
      const category = CATEGORIES.find((c) => c === str(b.category)) ?? '';
      const value = parseDollars(str(b.value));
      const err = itemError(policy, name, category, value);
      if (err) return json({ ok: false, error: err });
      const id = 101 + st.policies.flatMap((p) => p.items).filter((i) => !i.seeded).length;
      policy.items.push({ id, name, category, value, removed: false, seeded: false, seq: st.seq });
      policy.premiumCents += itemPremiumCents(value);
      st.flash = `“${name}” added to your cover`;
      return json({ ok: true, id });
    }
    case 'remove-item': {
      const item = policy?.items.find((i) => i.id === Number(b.item) && !i.removed);
      if (!policy || !item) return json({ ok: false }, 404);
      item.removed = true;
      policy.premiumCents = Math.max(0, policy.premiumCents - itemPremiumCents(item.value));
      st.flash = `“${item.name}” removed from your cover`;
      return json({ ok: true });
    }
    case 'claim': {
      if (!policy) return json({ ok: false, error: 'Choose a policy' }, 404);
      const type = str(b.type);
      const date = parseDay(str(b.date));
      const amount = parseDollars(str(b.amount));
      const err = claimError(policy, type, date, amount);
      if (err) return json({ ok: false, error: err });
      const id = Math.max(0, ...st.claims.map((c) => c.id)) + 1;
      st.claims.push({ id, ref: claimRef(st), policyId: policy.id, type, date, amount, description: str(b.description).trim().slice(0, 500), status: 'Submitted', filed: TODAY, seeded: false, seq: st.seq });
      return json({ ok: true, id });
    }
    case 'withdraw': {
      const c = st.claims.find((x) => x.id === Number(b.claim));
      if (!c || !isOpen(c)) return json({ ok: false }, 409);
      c.status = 'Withdrawn';
      st.flash = `Claim ${c.ref} withdrawn`;
      return json({ ok: true });
    }
    case 'request-doc': {
      const doc = str(b.document);
      const delivery = DELIVERIES.find((d) => d === str(b.delivery));
      if (!policy || !policy.documents.includes(doc)) return json({ ok: false, error: 'That document isn’t available' }, 404);
      if (!delivery) return json({ ok: false, error: 'Choose how to send it' });
      st.requests.push({ id: Math.max(0, ...st.requests.map((r) => r.id)) + 1, policyId: policy.id, document: doc, delivery, day: TODAY, seeded: false, seq: st.seq });
      st.flash = `Request sent: ${doc} for ${policy.label} ${delivery === 'Email' ? `will be emailed to ${USER_EMAIL}` : 'will be posted to you'}`;
      return json({ ok: true });
    }
    case 'method': {
      const m = methodOf(st, str(b.method));
      if (!policy || !m) return json({ ok: false, error: 'Choose a payment method' }, 404);
      if (policy.methodId === m.id) return json({ ok: false, error: `${policy.label} is already paid with ${m.label}` });
      policy.methodId = m.id;
      st.flash = `Payment method updated: ${policy.label} will be paid with ${m.label}`;
      return json({ ok: true });
    }
    case 'payday': {
      const day = Number(b.day);
      if (!policy || !Number.isInteger(day) || day < 1 || day > 28) return json({ ok: false }, 400);
      policy.payDay = day;
      st.flash = `Payment day changed to the ${ordinal(day)} of the month`;
      return json({ ok: true });
    }
    case 'setting': {
      const key = str(b.key);
      if (!SWITCHES.some(([k]) => k === key)) return json({ ok: false }, 400);
      st.settings[key as keyof Settings] = b.value === true;
      return json({ ok: true });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleInsurance(st: InsuranceState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(st, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg, sub] = parts;
  switch (head) {
    case undefined:
      return homePage(st, ctx);
    case 'policies':
      return arg ? notFound(CSS) : policiesPage(st, ctx);
    case 'policy': {
      const p = policyOf(st, arg ?? '');
      if (!p) return notFound(CSS);
      if (sub === 'add-item') return p.kind === 'home' ? addItemPage(st, ctx, p) : notFound(CSS);
      if (sub) return notFound(CSS);
      const tab = TABS.find((t) => t === req.query.get('tab')) ?? 'overview';
      return policyPage(st, ctx, p, tab);
    }
    case 'documents':
      return documentsPage(st, ctx, req.query.get('p') ?? '');
    case 'claims': {
      if (!arg) return claimsPage(st, ctx);
      if (arg !== 'new') return notFound(CSS);
      if (!sub) return claimPolicyPage(st, ctx);
      const p = policyOf(st, sub);
      return p ? claimFormPage(st, ctx, p) : notFound(CSS);
    }
    case 'claim': {
      const c = st.claims.find((x) => x.id === Number(arg));
      return c && !sub ? claimPage(st, ctx, c, req.query.get('new') === '1') : notFound(CSS);
    }
    case 'payments': {
      if (!arg) return paymentsPage(st, ctx);
      const p = policyOf(st, arg);
      if (!p) return notFound(CSS);
      if (sub === 'method') return methodPage(st, ctx, p);
      return sub ? notFound(CSS) : payPolicyPage(st, ctx, p);
    }
    case 'account':
      return accountPage(st, ctx);
    default:
      return notFound(CSS);
  }
}
