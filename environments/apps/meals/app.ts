import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { actionSheet, appbar, bodyOf, json, kitCss, notFound, overflowMenu, renderPage, str, toast, bottomNav as navBar } from '../kit.js';
import { esc } from '../shared.js';
import {
  cleanText,
  COLLECTIONS,
  dayOfMonth,
  DEFAULT_SERVINGS,
  entryOf,
  liveRecipes,
  livePlan,
  MAX_SERVINGS,
  mealOrder,
  MEALS,
  minutes,
  monthShort,
  NAME_MAX,
  OWNER,
  OWNER_EMAIL,
  planErrors,
  recipeErrors,
  recipeOf,
  reminderOf,
  REPEATS,
  shortDay,
  TIMES,
  totalMin,
  WEEK,
  weekdayOf,
  type MealsState,
  type PlanEntry,
  type Recipe,
  type Reminder,
} from './state.js';

const ACCENT = '#c2410c';
const SOFT = '#ffedd5';
const CSS =
  kitCss(ACCENT, SOFT) +
  `
body{background:#fbf7f4}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:66px;display:flex;background:#fff;border-top:1px solid #eadfd7}
.bnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:2px;font-size:14px;font-weight:bold;color:#6b5d55}
.bnav a .g{font-size:20px;line-height:22px}
.bnav a.on{color:${ACCENT}}
.spacer{height:120px}
.appbar .txt{color:#fff;font-size:18px;font-weight:bold;height:44px;padding:0 14px;border-radius:22px;display:flex;align-items:center}
.search{margin:12px 12px 4px;display:flex;align-items:center;gap:8px;background:#fff;border:2px solid #e6d9cf;border-radius:24px;padding:0 14px;height:48px}
.search input{flex:1;border:none;outline:none;font:inherit;font-size:17px;background:transparent}
.filters{display:flex;gap:8px;overflow-x:auto;padding:8px 12px}
.filters .chip{flex:none}
.count{padding:6px 16px;font-size:15px;color:#6b5d55}
.rc{display:flex;gap:14px;align-items:center;min-height:80px;padding:10px 16px;background:#fff;border-bottom:1px solid #f0e6de}
.thumb{flex:none;width:56px;height:56px;border-radius:12px;display:flex;align-items:center;justify-content:center;color:#fff;font-size:22px;font-weight:bold}
.rc .info,.pe .info,.gi .info,.rm .info{flex:1;min-width:0}
.rc .n{font-size:18px;font-weight:bold}
.rc .s{font-size:15px;color:#6b5d55;margin-top:3px}
.fav{flex:none;font-size:22px;color:#e03131}
.go{font-size:24px;color:#b5a59a}
.card{display:block;margin:12px;padding:16px 18px;background:#fff;border-radius:14px;border:1px solid #eadfd7}
.card h2{margin:0 0 6px;font-size:20px}
.card .d{font-size:16px;color:#4a3f38}
.card.ok{border-color:#8ce99a;background:#ebfbee}
.card.gone{background:#f8f9fa;border-color:#dee2e6}
.hero{display:flex;gap:16px;align-items:center;padding:16px;background:#fff;border-bottom:1px solid #f0e6de}
.hero h2{margin:0 0 4px;font-size:23px}
.hero .s{font-size:16px;color:#6b5d55}
.stats{display:flex;background:#fff;border-bottom:1px solid #f0e6de}
.stats div{flex:1;text-align:center;padding:12px 4px;font-size:14px;color:#6b5d55}
.stats b{display:block;font-size:18px;color:#2b211c}
.btns{display:flex;gap:10px;padding:12px 16px;background:#fff;border-bottom:1px solid #f0e6de}
.pill{flex:1;height:46px;border-radius:23px;border:2px solid ${ACCENT};color:${ACCENT};font-size:17px;font-weight:bold;display:flex;align-items:center;justify-content:center;background:#fff}
.pill.solid{background:${ACCENT};color:#fff}
.ing{display:flex;gap:12px;align-items:center;padding:11px 16px;background:#fff;border-bottom:1px solid #f5ede7;font-size:17px}
.ing:before{content:'';width:8px;height:8px;border-radius:4px;background:${ACCENT};flex:none}
.stp{display:flex;gap:12px;padding:12px 16px;background:#fff;border-bottom:1px solid #f5ede7;font-size:17px}
.stp b{flex:none;width:28px;height:28px;border-radius:14px;background:${SOFT};color:${ACCENT};display:flex;align-items:center;justify-content:center}
.kv{display:flex;justify-content:space-between;gap:16px;padding:14px 16px;background:#fff;border-bottom:1px solid #f0e6de;font-size:17px}
.kv .k{color:#6b5d55;flex:none}
.kv .v{font-weight:bold;text-align:right}
.intro{padding:14px 16px 4px;font-size:16px;color:#4a3f38}
.outline{display:block;margin:16px 12px;height:52px;border-radius:26px;border:2px solid ${ACCENT};color:${ACCENT};font-size:18px;font-weight:bold;width:calc(100% - 24px);text-align:center;background:#fff}
.outline.danger{border-color:#c92a2a;color:#c92a2a}
.pick{display:flex;justify-content:space-between;align-items:center;width:100%;height:50px;border:2px solid #d0d4da;border-radius:10px;padding:0 14px;font-size:17px;background:#fff;text-align:left}
.pick .ph{color:#868e96}
.field .chips{display:flex;flex-wrap:wrap;gap:8px}
.field .chip{min-height:42px}
.field .hint{font-size:15px;color:#6b5d55;margin-top:6px}
.field.bad input,.field.bad .pick{border-color:#c92a2a}
.field.bad .chips{outline:2px solid #c92a2a;outline-offset:4px;border-radius:8px}
.ferr{color:#c92a2a;font-size:15px;font-weight:bold;margin-top:6px}
.ferr:empty{display:none}
.mins{display:flex;align-items:center;gap:10px}
.mins input{max-width:140px}
.mins span{font-size:17px;color:#6b5d55}
.dialog .acts button.destroy{color:#c92a2a}
.dialog.tall .list{max-height:52vh;overflow-y:auto}
.dialog .opt{border-bottom:1px solid #f1f3f5}
.dialog .opt .sub{font-size:14px;color:#6b5d55;margin-left:auto}
.day{padding:16px 16px 6px;font-size:15px;font-weight:bold;color:#6b5d55;text-transform:uppercase;letter-spacing:.3px;display:flex;justify-content:space-between}
.day .today{color:${ACCENT}}
.pe{display:flex;gap:12px;align-items:center;min-height:70px;padding:8px 8px 8px 16px;background:#fff;border-bottom:1px solid #f0e6de}
.pe.new{background:#fff7ed}
.pe .meal{flex:none;width:84px;font-size:13px;font-weight:bold;text-transform:uppercase;color:${ACCENT}}
.pe .n{font-size:17px;font-weight:bold}
.pe .s{font-size:14px;color:#6b5d55;margin-top:2px}
.pe .more{flex:none;width:44px;height:44px;font-size:24px;color:#6b5d55;border-radius:22px}
.none{padding:10px 16px;background:#fff;border-bottom:1px solid #f0e6de;font-size:15px;color:#9a8b81}
.gi{display:flex;gap:14px;align-items:center;min-height:58px;padding:8px 16px;background:#fff;border-bottom:1px solid #f0e6de;width:100%;text-align:left;font-size:17px}
.box{flex:none;width:26px;height:26px;border-radius:6px;border:2px solid #868e96;display:flex;align-items:center;justify-content:center;color:#fff;font-size:16px;font-weight:bold}
.gi[aria-checked="true"] .box{background:${ACCENT};border-color:${ACCENT}}
.gi[aria-checked="true"] .info{color:#9a8b81;text-decoration:line-through}
.rm{display:flex;gap:14px;align-items:center;min-height:70px;padding:10px 16px;background:#fff;border-bottom:1px solid #f0e6de}
.rm .t{font-size:17px;font-weight:bold}
.rm .s{font-size:15px;color:#6b5d55;margin-top:3px}
.srow{display:flex;gap:14px;align-items:center;min-height:64px;padding:10px 16px;background:#fff;border-bottom:1px solid #f0e6de;width:100%;text-align:left}
.srow .info{flex:1}
.srow .t{font-size:17px}
.srow .s{font-size:15px;color:#6b5d55;margin-top:3px}
.me{flex:none;width:56px;height:56px;border-radius:28px;background:${ACCENT};color:#fff;font-size:21px;font-weight:bold;display:flex;align-items:center;justify-content:center}
.stepper .val{font-size:20px}
.toast{display:flex;justify-content:space-between;align-items:center}
.toast button{color:#fed7aa;font-weight:bold;font-size:17px;padding:4px 8px;margin-left:12px}
`;

type Tab = 'recipes' | 'plan' | 'groceries' | 'profile';
const bottomNav = (ctx: AppContext, on: Tab): string =>
  navBar(
    [
      { id: 'recipes', label: 'Recipes', glyph: '&#9776;', href: `${ctx.base}/` },
      { id: 'plan', label: 'Planner', glyph: '&#9783;', href: `${ctx.base}/plan` },
      { id: 'groceries', label: 'Groceries', glyph: '&#10003;', href: `${ctx.base}/groceries` },
      { id: 'profile', label: 'Profile', glyph: '&#9786;', href: `${ctx.base}/profile` },
    ],
    on,
  );
const menu = (ctx: AppContext, extra: readonly (readonly [string, string])[] = []): string =>
  overflowMenu([...extra, ['Recipes', `${ctx.base}/`], ['Planner', `${ctx.base}/plan`], ['Groceries', `${ctx.base}/groceries`], ['Profile', `${ctx.base}/profile`]]);

const COLL_STYLE: Readonly<Record<string, readonly [string, string]>> = {
  Breakfast: ['#f08c00', '&#9728;'],
  Mains: ['#c2410c', '&#9832;'],
  'Soups & salads': ['#2f9e44', '&#9749;'],
  Baking: ['#9c36b5', '&#9733;'],
};
const thumb = (r: Recipe, size = 56): string => {
  const [color, glyph] = COLL_STYLE[r.collection] ?? ['#868e96', '&#9632;'];
  return `<div class="thumb" aria-hidden="true" style="background:${color};width:${size}px;height:${size}px;font-size:${Math.round(size * 0.42)}px">${glyph}</div>`;
};
const dayName = (day: number): string => `${weekdayOf(day)}${day === 0 ? ' (today)' : ''}`;
const servingsText = (n: number): string => `${n} serving${n === 1 ? '' : 's'}`;
const byName = (a: Recipe, b: Recipe): number => a.name.localeCompare(b.name);

function recipesPage(st: MealsState, ctx: AppContext, t: string, id: string): AppResponse {
  const recipes = liveRecipes(st).sort(byName);
  const row = (r: Recipe): string =>
    `<a class="rc" href="${ctx.base}/r/${r.id}" data-name="${esc(r.name)}" data-coll="${esc(r.collection)}">${thumb(r)}<div class="info"><div class="n">${esc(r.name)}</div><div class="s">${esc(r.collection)} · ${minutes(totalMin(r))} · &#9733; ${r.rating.toFixed(1)}</div></div>${r.favorite ? '<span class="fav" aria-label="Favorite">&#9829;</span>' : ''}<span class="go">&rsaquo;</span></a>`;
  const deleted = t === 'deleted' ? recipeOf(st, id) : undefined;
  const restored = t === 'restored' ? recipeOf(st, id) : undefined;
  const banner = deleted?.deleted ? `<div class="card gone"><h2>Recipe deleted</h2><div class="d">${esc(deleted.name)} was removed from your recipe box and your plan.</div></div>` : '';
  const body = `${appbar('Saffra')}${banner}
<div class="search"><span aria-hidden="true">&#128269;</span><input id="q" type="search" placeholder="Search recipes" autocomplete="off" oninput="filter()"></div>
<div class="filters" id="g-coll" role="radiogroup">${['All', ...COLLECTIONS].map((c) => `<button class="chip${c === 'All' ? ' on' : ''}" role="radio" aria-checked="${c === 'All'}" data-v="${esc(c)}" onclick="pickColl(this)">${esc(c)}</button>`).join('')}</div>
<div class="section">Your recipe box</div>
<div class="count" id="count">${recipes.length} recipes</div>
<div id="list">${recipes.map(row).join('')}</div>
<div class="empty" id="nores" hidden>No recipes match</div>
<div class="spacer"></div>${bottomNav(ctx, 'recipes')}${menu(ctx)}
${
  deleted?.deleted
    ? `<div id="undo-bar" class="toast" role="status"><span>Recipe deleted</span><button id="undo" onclick="undo('${deleted.id}')">Undo</button></div>`
    : restored && !restored.deleted
      ? toast(`${restored.name} restored`)
      : ''
}`;
  const script = `let C='All';
function filter(){const q=document.getElementById('q').value.trim().toLowerCase();let n=0;
 for(const a of document.querySelectorAll('#list .rc')){const on=(C==='All'||a.dataset.coll===C)&&(!q||a.dataset.name.toLowerCase().includes(q));a.hidden=!on;if(on)n++}
 document.getElementById('count').textContent=n+(n===1?' recipe':' recipes');document.getElementById('nores').hidden=n>0}
function pickColl(el){C=el.dataset.v;for(const b of document.querySelectorAll('#g-coll .chip')){const on=b===el;b.classList.toggle('on',on);b.setAttribute('aria-checked',String(on))}filter()}
setTimeout(()=>{const u=document.getElementById('undo-bar');if(u)u.hidden=true},10000);
function undo(id){api('restore',{id}).then(r=>{if(r.ok)location.replace(BASE+'/?t=restored&id='+id)})}`;
  return renderPage({ title: 'Saffra', css: CSS, body, ctx, script, root: true });
}

function recipePage(st: MealsState, ctx: AppContext, r: Recipe, t: string): AppResponse {
  const planned = livePlan(st)
    .filter((p) => p.recipeId === r.id)
    .sort((a, b) => a.day - b.day || mealOrder(a.meal) - mealOrder(b.meal));
  let banner = '';
  if (r.deleted) banner = `<div class="card gone"><h2>This recipe was deleted</h2><div class="d">It is no longer in your recipe box.</div></div>`;
  else if (t === 'updated') banner = `<div class="card ok"><h2>Recipe updated</h2><div class="d">${esc(r.name)}: prep ${minutes(r.prepMin)}, cook ${minutes(r.cookMin)}, serves ${r.serves}.</div></div>`;
  const editHref = `${ctx.base}/r/${r.id}/edit`;
  const steps = [
    `Get everything ready: ${r.ingredients.slice(0, 3).join(', ').toLowerCase()} and the rest (about ${minutes(r.prepMin)}).`,
    r.cookMin ? `Cook for about ${minutes(r.cookMin)}, checking now and then.` : 'No cooking needed: combine everything and chill.',
    'Taste, adjust the seasoning and serve. Leftovers keep for up to 3 days.',
  ];
  const body = `${appbar('Recipe', { back: true, actions: r.deleted ? '' : `<a class="txt" id="edit" href="${editHref}">Edit</a>` })}${banner}
<div class="hero">${thumb(r, 64)}<div><h2>${esc(r.name)}</h2><div class="s">${esc(r.collection)} · &#9733; ${r.rating.toFixed(1)}</div></div></div>
<div class="stats"><div>Prep<b id="v-prep">${minutes(r.prepMin)}</b></div><div>Cook<b id="v-cook">${minutes(r.cookMin)}</b></div><div>Serves<b id="v-serves">${r.serves}</b></div></div>
${
  r.deleted
    ? ''
    : `<div class="btns"><a class="pill solid" id="plan-btn" href="${ctx.base}/plan/new?recipe=${r.id}">Add to plan</a><button class="pill" id="fav-btn" aria-pressed="${r.favorite}" onclick="fav()">${r.favorite ? '&#9829; Favorite' : '&#9825; Favorite'}</button></div>`
}
${planned.length ? `<div class="intro">On your plan: ${esc(planned.map((p) => `${weekdayOf(p.day)} ${p.meal.toLowerCase()}`).join(', '))}</div>` : ''}
<div class="section">Ingredients</div>
${r.ingredients.map((i) => `<div class="ing">${esc(i)}</div>`).join('')}
<div class="section">Method</div>
${steps.map((s, i) => `<div class="stp"><b>${i + 1}</b><div>${esc(s)}</div></div>`).join('')}
${r.notes ? `<div class="section">Notes</div><div class="intro">${esc(r.notes)}</div>` : ''}
${r.deleted ? '' : `<button class="outline danger" id="delete-btn" onclick="show('delete')">Delete recipe</button>`}
<div class="spacer"></div>${bottomNav(ctx, 'recipes')}
${menu(ctx, r.deleted ? [] : [['Edit recipe', editHref], ['Delete recipe', "js:document.getElementById('overflow').hidden=true;show('delete')"]])}
${
  r.deleted
    ? ''
    : `<div id="delete" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Delete recipe?"><h2>Delete recipe?</h2>
<p>&ldquo;${esc(r.name)}&rdquo; will be removed from your recipe box${planned.length ? ` and from ${planned.length} planned ${planned.length === 1 ? 'meal' : 'meals'} this week` : ''}.</p>
<div class="error" id="derr"></div><div class="acts"><button onclick="hide('delete')">Cancel</button><button class="destroy" id="delete-ok" onclick="doDelete()">Delete</button></div></div></div>`
}
${t === 'updated' && !r.deleted ? toast('Changes saved') : ''}`;
  const script = r.deleted
    ? ''
    : `let busy=false;function doDelete(){if(busy)return;busy=true;api('delete',{id:'${r.id}'}).then(x=>{busy=false;if(x.ok){location.replace(BASE+'/?t=deleted&id=${r.id}');return}document.getElementById('derr').textContent=x.error||'Could not delete'})}
function fav(){api('fav',{id:'${r.id}'}).then(x=>{if(!x.ok)return;const b=document.getElementById('fav-btn');b.setAttribute('aria-pressed',String(x.favorite));b.innerHTML=(x.favorite?'&#9829;':'&#9825;')+' Favorite'})}`;
  return renderPage({ title: r.name, css: CSS, body, ctx, script });
}

function editRecipeForm(ctx: AppContext, r: Recipe): AppResponse {
  const body = `${appbar('Edit recipe', { back: true, menu: false, actions: `<button class="txt" id="save" onclick="save()">Save</button>` })}
<div class="field" id="f-name"><label for="name">Name</label><input id="name" type="text" autocomplete="off" maxlength="${NAME_MAX + 10}" value="${esc(r.name)}"><div class="ferr" id="e-name"></div></div>
<div class="field" id="f-serves"><label>Serves</label><div class="stepper"><button id="serves-minus" aria-label="Fewer servings" onclick="step(-1)">&minus;</button><span class="val" id="serves">${r.serves}</span><button id="serves-plus" aria-label="More servings" onclick="step(1)">+</button></div><div class="ferr" id="e-serves"></div></div>
<div class="field" id="f-prep"><label for="prep">Prep time</label><div class="mins"><input id="prep" type="text" inputmode="numeric" autocomplete="off" value="${r.prepMin}"><span>minutes</span></div><div class="ferr" id="e-prep"></div></div>
<div class="field" id="f-cook"><label for="cook">Cook time</label><div class="mins"><input id="cook" type="text" inputmode="numeric" autocomplete="off" value="${r.cookMin}"><span>minutes</span></div><div class="ferr" id="e-cook"></div></div>
<div class="field" id="f-collection"><label>Collection</label><div class="chips" id="g-coll" role="radiogroup">${COLLECTIONS.map(
    (c) => `<button class="chip${c === r.collection ? ' on' : ''}" role="radio" aria-checked="${c === r.collection}" data-v="${esc(c)}" onclick="pickColl(this)">${esc(c)}</button>`,
  ).join('')}</div><div class="ferr" id="e-collection"></div></div>
<div class="field" id="f-notes"><label for="notes">Notes (optional)</label><input id="notes" type="text" autocomplete="off" maxlength="120" placeholder="e.g. Double the garlic" value="${esc(r.notes)}"></div>
<div class="error" id="err"></div>
<div class="spacer"></div>`;
  const script = `const V={serves:${r.serves},collection:${JSON.stringify(r.collection)}};
function clr(k){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
function step(d){V.serves=Math.max(1,Math.min(${MAX_SERVINGS},V.serves+d));document.getElementById('serves').textContent=V.serves;clr('serves')}
function pickColl(el){V.collection=el.dataset.v;clr('collection');for(const b of document.querySelectorAll('#g-coll .chip')){const on=b===el;b.classList.toggle('on',on);b.setAttribute('aria-checked',String(on))}}
let busy=false;function save(){if(busy)return;for(const k of ['name','serves','prep','cook','collection'])clr(k);document.getElementById('err').textContent='';
 const v=k=>document.getElementById(k).value;busy=true;
 api('edit',{id:'${r.id}',name:v('name'),serves:V.serves,prep:v('prep'),cook:v('cook'),collection:V.collection,notes:v('notes')}).then(x=>{busy=false;
 if(x.ok){location.replace(BASE+'/r/${r.id}?t=updated');return}
 if(x.error)document.getElementById('err').textContent=x.error;
 let first=null;for(const [k,m] of Object.entries(x.errors||{})){document.getElementById('e-'+k).textContent=m;const f=document.getElementById('f-'+k);f.classList.add('bad');first=first||f}if(first)first.scrollIntoView({block:'center'})})}`;
  return renderPage({ title: 'Edit recipe', css: CSS, body, ctx, script });
}

function plannerPage(st: MealsState, ctx: AppContext, t: string, id: number): AppResponse {
  const plan = livePlan(st);
  const added = t === 'added' ? entryOf(st, id) : undefined;
  const removed = t === 'removed' ? entryOf(st, id) : undefined;
  const nameOf = (p: PlanEntry): string => recipeOf(st, p.recipeId)?.name ?? '';
  let banner = '';
  if (added && !added.removed) banner = `<div class="card ok"><h2>Added to your plan</h2><div class="d">${esc(nameOf(added))}, ${esc(weekdayOf(added.day))} ${esc(added.meal.toLowerCase())}, ${servingsText(added.servings)}.</div></div>`;
  const days = WEEK.map((d) => {
    const items = plan.filter((p) => p.day === d).sort((a, b) => mealOrder(a.meal) - mealOrder(b.meal) || a.id - b.id);
    const rows = items
      .map((p) => {
        const r = recipeOf(st, p.recipeId);
        return `<div class="pe${added?.id === p.id ? ' new' : ''}" data-entry="${p.id}" data-name="${esc(nameOf(p))}"><div class="meal">${esc(p.meal)}</div><a class="info" href="${ctx.base}/r/${p.recipeId}"><div class="n">${esc(nameOf(p))}</div><div class="s">${servingsText(p.servings)}${r ? ` · ${minutes(totalMin(r))}` : ''}</div></a><button class="more" aria-label="Options for ${esc(nameOf(p))}" onclick="opts(${p.id},'${p.recipeId}',this)">&#8942;</button></div>`;
      })
      .join('');
    return `<div class="day" data-day="${esc(weekdayOf(d))}"><span>${esc(shortDay(d))}</span>${d === 0 ? '<span class="today">Today</span>' : ''}</div>${rows || '<div class="none">Nothing planned</div>'}`;
  }).join('');
  const body = `${appbar('Planner')}${banner}
<div class="section">This week</div>
<div class="count">${esc(monthShort(0))} ${dayOfMonth(0)} – ${esc(monthShort(6))} ${dayOfMonth(6)} · ${plan.length} meals planned</div>
${days}
<div class="spacer"></div>
<a class="fab" id="add" href="${ctx.base}/plan/new" style="bottom:86px"><span class="plus">+</span>Add meal</a>
${bottomNav(ctx, 'plan')}${menu(ctx, [['Add meal', `${ctx.base}/plan/new`]])}
${actionSheet('sheet', [
  ['Open recipe', "location.href=BASE+'/r/'+SEL.r"],
  ['Remove from plan', "hide('sheet');show('unplan')"],
])}
<div id="unplan" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Remove from plan?"><h2>Remove from plan?</h2><p id="unplan-text"></p>
<div class="acts"><button onclick="hide('unplan')">Cancel</button><button class="destroy" id="unplan-ok" onclick="unplan()">Remove</button></div></div></div>
${added && !added.removed ? toast('Meal added') : removed?.removed ? toast('Removed from plan') : ''}`;
  const script = `let SEL={};function opts(id,r,el){const row=el.closest('.pe');SEL={id,r,name:row.dataset.name};document.getElementById('sheet-t').textContent=SEL.name;
 document.getElementById('unplan-text').textContent=SEL.name+' will be taken off your plan. The recipe stays in your recipe box.';show('sheet')}
function unplan(){api('unplan',{id:SEL.id}).then(x=>{if(x.ok)location.replace(BASE+'/plan?t=removed&id='+SEL.id)})}`;
  return renderPage({ title: 'Planner', css: CSS, body, ctx, script, root: true });
}

function planForm(st: MealsState, ctx: AppContext, preset: Recipe | undefined): AppResponse {
  const recipes = liveRecipes(st).sort(byName);
  const radio = (group: string, v: string, label: string, on: boolean, fn: string, sub = ''): string =>
    `<button class="opt${on ? ' sel' : ''}" role="radio" aria-checked="${on}" data-g="${group}" data-v="${esc(v)}" onclick="${fn}(this)"><span class="rad"></span>${esc(label)}${sub ? `<span class="sub">${esc(sub)}</span>` : ''}</button>`;
  const body = `${appbar('Plan a meal', { back: true, menu: false, actions: `<button class="txt" id="save" onclick="save()">Save</button>` })}
<div class="intro">Add a recipe to this week's plan.</div>
<div class="field" id="f-recipe"><label>Recipe</label><button class="pick" id="recipe-btn" onclick="show('recipedlg')"><span id="recipe-v"${preset ? '' : ' class="ph"'}>${preset ? esc(preset.name) : 'Choose a recipe'}</span><span>&#9662;</span></button><div class="ferr" id="e-recipe"></div></div>
<div class="field" id="f-day"><label>Day</label><button class="pick" id="day-btn" onclick="show('daydlg')"><span id="day-v">${esc(dayName(0))}</span><span>&#9662;</span></button><div class="ferr" id="e-day"></div></div>
<div class="field" id="f-meal"><label>Meal</label><div class="chips" id="g-meal" role="radiogroup">${MEALS.map((m) => `<button class="chip" role="radio" aria-checked="false" data-v="${esc(m)}" onclick="pickMeal(this)">${esc(m)}</button>`).join('')}</div><div class="ferr" id="e-meal"></div></div>
<div class="field" id="f-servings"><label>Servings</label><div class="stepper"><button id="servings-minus" aria-label="Fewer servings" onclick="step(-1)">&minus;</button><span class="val" id="servings">${DEFAULT_SERVINGS}</span><button id="servings-plus" aria-label="More servings" onclick="step(1)">+</button></div><div class="hint">How many people you're cooking for</div><div class="ferr" id="e-servings"></div></div>
<div class="error" id="err"></div>
<div class="spacer"></div>
<div id="recipedlg" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('recipedlg')"><div class="dialog tall" role="dialog" aria-label="Choose a recipe"><h2>Choose a recipe</h2><div class="list">${recipes
    .map((r) => radio('recipe', r.id, r.name, r.id === preset?.id, 'pickRecipe', r.collection))
    .join('')}</div>
<div class="acts"><button onclick="hide('recipedlg')">Cancel</button></div></div></div>
<div id="daydlg" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('daydlg')"><div class="dialog" role="dialog" aria-label="Day"><h2>Day</h2>${WEEK.map((d) => radio('day', String(d), dayName(d), d === 0, 'pickDay', `${monthShort(d)} ${dayOfMonth(d)}`)).join('')}
<div class="acts"><button onclick="hide('daydlg')">Cancel</button></div></div></div>`;
  const script = `const V={recipe:${JSON.stringify(preset?.id ?? '')},day:0,meal:'',servings:${DEFAULT_SERVINGS}};
function clr(k){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
function mark(id,el){for(const o of document.querySelectorAll('#'+id+' .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide(id)}
function pickRecipe(el){V.recipe=el.dataset.v;const s=document.getElementById('recipe-v');s.textContent=el.childNodes[1].textContent;s.classList.remove('ph');clr('recipe');mark('recipedlg',el)}
function pickDay(el){V.day=Number(el.dataset.v);document.getElementById('day-v').textContent=el.childNodes[1].textContent;clr('day');mark('daydlg',el)}
function pickMeal(el){V.meal=el.dataset.v;clr('meal');for(const b of document.querySelectorAll('#g-meal .chip')){const on=b===el;b.classList.toggle('on',on);b.setAttribute('aria-checked',String(on))}}
function step(d){V.servings=Math.max(1,Math.min(${MAX_SERVINGS},V.servings+d));document.getElementById('servings').textContent=V.servings;clr('servings')}
let busy=false;function save(){if(busy)return;for(const k of ['recipe','day','meal','servings'])clr(k);document.getElementById('err').textContent='';busy=true;
 api('plan',V).then(x=>{busy=false;
 if(x.ok){location.replace(BASE+'/plan?t=added&id='+x.id);return}
 if(x.error)document.getElementById('err').textContent=x.error;
 let first=null;for(const [k,m] of Object.entries(x.errors||{})){document.getElementById('e-'+k).textContent=m;const f=document.getElementById('f-'+k);f.classList.add('bad');first=first||f}if(first)first.scrollIntoView({block:'center'})})}`;
  return renderPage({ title: 'Plan a meal', css: CSS, body, ctx, script });
}

function groceriesPage(st: MealsState, ctx: AppContext): AppResponse {
  const aisles = [...new Set(st.groceries.map((g) => g.aisle))];
  const left = st.groceries.filter((g) => !g.checked).length;
  const body = `${appbar('Groceries')}
<div class="section">Shopping list</div>
<div class="count" id="left">${left} of ${st.groceries.length} left to buy</div>
${aisles
  .map(
    (a) =>
      `<div class="day">${esc(a)}</div>${st.groceries
        .filter((g) => g.aisle === a)
        .map((g) => `<button class="gi" role="checkbox" aria-checked="${g.checked}" data-item="${esc(g.name)}" onclick="tog(${g.id},this)"><span class="box">&#10003;</span><div class="info">${esc(g.name)}</div></button>`)
        .join('')}`,
  )
  .join('')}
<div class="intro">Tick items as you shop. Ingredients from your plan show up here.</div>
<div class="spacer"></div>${bottomNav(ctx, 'groceries')}${menu(ctx)}`;
  const script = `function tog(id,el){api('grocery',{id}).then(x=>{if(!x.ok)return;el.setAttribute('aria-checked',String(x.checked));document.getElementById('left').textContent=x.left+' of ${st.groceries.length} left to buy'})}`;
  return renderPage({ title: 'Groceries', css: CSS, body, ctx, script, root: true });
}

const reminderLine = (r: Reminder): string => (r.on ? `On · ${r.time} · ${r.repeat}` : 'Off');

function profilePage(st: MealsState, ctx: AppContext, t: string, id: string): AppResponse {
  const saved = t === 'saved' ? reminderOf(st, id) : undefined;
  const banner = saved ? `<div class="card ok"><h2>Reminder saved</h2><div class="d">${esc(saved.name)}: ${saved.on ? `${esc(saved.time)}, ${esc(saved.repeat.toLowerCase())}` : 'off'}.</div></div>` : '';
  const row = (tt: string, s: string): string => `<div class="srow"><div class="info"><div class="t">${esc(tt)}</div><div class="s">${esc(s)}</div></div></div>`;
  const body = `${appbar('Profile')}${banner}
<div class="srow"><div class="me" aria-hidden="true">JE</div><div class="info"><div class="t"><b>${esc(OWNER)}</b></div><div class="s">${esc(OWNER_EMAIL)}</div></div></div>
<div class="section">Preferences</div>
${row('Units', 'US (cups, °F)')}
${row('Diet', 'No restrictions')}
${row('Default servings', String(DEFAULT_SERVINGS))}
<div class="section">Meal reminders</div>
${st.reminders
  .map(
    (r) =>
      `<a class="rm" href="${ctx.base}/reminders/${r.id}" data-reminder="${esc(r.name)}"><div class="info"><div class="t">${esc(r.name)}</div><div class="s">${esc(reminderLine(r))}</div></div><span class="switch${r.on ? ' on' : ''}" aria-hidden="true"></span><span class="go">&rsaquo;</span></a>`,
  )
  .join('')}
<div class="section">More</div>
${row('Saffra Plus', 'Nutrition info and smart shopping lists')}
${row('Help and feedback', 'FAQ and contact')}
<div class="spacer"></div>${bottomNav(ctx, 'profile')}${menu(ctx)}
${saved ? toast('Reminder saved') : ''}`;
  return renderPage({ title: 'Profile', css: CSS, body, ctx, root: true });
}

function reminderPage(ctx: AppContext, r: Reminder): AppResponse {
  const times = TIMES.includes(r.time) ? TIMES : [r.time, ...TIMES];
  const body = `${appbar(r.name, { back: true, menu: false, actions: `<button class="txt" id="save" onclick="save()">Save</button>` })}
<button class="srow" id="on-row" role="switch" aria-checked="${r.on}" onclick="togOn()"><div class="info"><div class="t"><b>Remind me</b></div><div class="s">A notification at the time you choose</div></div><span class="switch${r.on ? ' on' : ''}" id="on-sw"></span></button>
<div class="field" id="f-time"><label>Time</label><button class="pick" id="time-btn" onclick="show('timedlg')"><span id="time-v">${esc(r.time)}</span><span>&#9662;</span></button></div>
<div class="field" id="f-repeat"><label>Repeat</label><div class="chips" id="g-repeat" role="radiogroup">${REPEATS.map(
    (x) => `<button class="chip${x === r.repeat ? ' on' : ''}" role="radio" aria-checked="${x === r.repeat}" data-v="${esc(x)}" onclick="pickRepeat(this)">${esc(x)}</button>`,
  ).join('')}</div></div>
<div class="intro">Changes take effect when you tap Save.</div>
<div class="error" id="err"></div>
<div class="spacer"></div>
<div id="timedlg" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('timedlg')"><div class="dialog tall" role="dialog" aria-label="Time"><h2>Time</h2><div class="list">${times
    .map((x) => `<button class="opt${x === r.time ? ' sel' : ''}" role="radio" aria-checked="${x === r.time}" data-v="${esc(x)}" onclick="pickTime(this)"><span class="rad"></span>${esc(x)}</button>`)
    .join('')}</div>
<div class="acts"><button onclick="hide('timedlg')">Cancel</button></div></div></div>`;
  const script = `const V={on:${r.on},time:${JSON.stringify(r.time)},repeat:${JSON.stringify(r.repeat)}};
function togOn(){V.on=!V.on;document.getElementById('on-row').setAttribute('aria-checked',String(V.on));document.getElementById('on-sw').classList.toggle('on',V.on)}
function pickTime(el){V.time=el.dataset.v;document.getElementById('time-v').textContent=V.time;for(const o of document.querySelectorAll('#timedlg .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide('timedlg')}
function pickRepeat(el){V.repeat=el.dataset.v;for(const b of document.querySelectorAll('#g-repeat .chip')){const on=b===el;b.classList.toggle('on',on);b.setAttribute('aria-checked',String(on))}}
let busy=false;function save(){if(busy)return;busy=true;api('reminder',{id:'${r.id}',...V}).then(x=>{busy=false;if(x.ok){location.replace(BASE+'/profile?t=saved&id=${r.id}');return}document.getElementById('err').textContent=x.error||'Could not save'})}`;
  return renderPage({ title: r.name, css: CSS, body, ctx, script });
}

const num = (v: unknown): number => (typeof v === 'number' ? v : NaN);

function handleApi(st: MealsState, action: string, b: Record<string, unknown>): AppResponse {
  st.seq += 1;
  switch (action) {
    case 'plan': {
      const d = { recipe: str(b.recipe), day: num(b.day), meal: str(b.meal), servings: num(b.servings) };
      const errors = planErrors(st, d);
      if (Object.keys(errors).length) return json({ ok: false, errors });
      const id = 701 + st.plan.filter((p) => !p.seeded).length;
      st.plan.push({ id, day: d.day, meal: d.meal, recipeId: d.recipe, servings: d.servings, seeded: false, removed: false, seq: st.seq });
      return json({ ok: true, id });
    }
    case 'unplan': {
      const p = entryOf(st, Number(b.id));
      if (!p || p.removed) return json({ ok: false, error: 'This meal is no longer on your plan' }, 409);
      p.removed = true;
      p.seq = st.seq;
      return json({ ok: true });
    }
    case 'edit': {
      const r = recipeOf(st, str(b.id));
      if (!r || r.deleted) return json({ ok: false, error: 'This recipe was deleted' }, 409);
      const d = { name: str(b.name), serves: num(b.serves), prep: str(b.prep), cook: str(b.cook), collection: str(b.collection) };
      const errors = recipeErrors(d);
      if (Object.keys(errors).length) return json({ ok: false, errors });
      r.name = cleanText(d.name);
      r.serves = d.serves;
      r.prepMin = Number(d.prep.trim());
      r.cookMin = Number(d.cook.trim());
      r.collection = d.collection;
      r.notes = cleanText(str(b.notes)).slice(0, 120);
      r.edits += 1;
      r.seq = st.seq;
      return json({ ok: true });
    }
    case 'delete': {
      const r = recipeOf(st, str(b.id));
      if (!r || r.deleted) return json({ ok: false, error: 'This recipe was already deleted' }, 409);
      r.deleted = true;
      r.seq = st.seq;
      return json({ ok: true });
    }
    case 'restore': {
      const r = recipeOf(st, str(b.id));
      if (!r || !r.deleted) return json({ ok: false, error: 'Nothing to undo' }, 409);
      r.deleted = false;
      r.seq = st.seq;
      return json({ ok: true });
    }
    case 'fav': {
      const r = recipeOf(st, str(b.id));
      if (!r || r.deleted) return json({ ok: false, error: 'This recipe was deleted' }, 409);
      r.favorite = !r.favorite;
      return json({ ok: true, favorite: r.favorite });
    }
    case 'grocery': {
      const g = st.groceries.find((x) => x.id === Number(b.id));
      if (!g) return json({ ok: false, error: 'Not on the list' }, 404);
      g.checked = !g.checked;
      return json({ ok: true, checked: g.checked, left: st.groceries.filter((x) => !x.checked).length });
    }
    case 'reminder': {
      const r = reminderOf(st, str(b.id));
      if (!r) return json({ ok: false, error: 'Unknown reminder' }, 404);
      const time = str(b.time);
      const repeat = str(b.repeat);
      if (typeof b.on !== 'boolean' || !(TIMES.includes(time) || time === r.time) || !REPEATS.includes(repeat)) return json({ ok: false, error: 'Something went wrong. Try again.' }, 400);
      r.on = b.on;
      r.time = time;
      r.repeat = repeat;
      r.saves += 1;
      return json({ ok: true });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleMeals(st: MealsState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean).map(decodeURIComponent);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(st, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg, sub] = parts;
  const t = req.query.get('t') ?? '';
  const id = req.query.get('id') ?? '';
  if (head === undefined) return recipesPage(st, ctx, t, id);
  if (head === 'plan' && arg === undefined) return plannerPage(st, ctx, t, Number(id));
  if (head === 'plan' && arg === 'new' && sub === undefined) {
    const preset = recipeOf(st, req.query.get('recipe') ?? '');
    return planForm(st, ctx, preset && !preset.deleted ? preset : undefined);
  }
  if (head === 'groceries' && arg === undefined) return groceriesPage(st, ctx);
  if (head === 'profile' && arg === undefined) return profilePage(st, ctx, t, id);
  if (head === 'reminders' && arg && sub === undefined) {
    const r = reminderOf(st, arg);
    return r ? reminderPage(ctx, r) : notFound(CSS);
  }
  if (head === 'r' && arg) {
    const r = recipeOf(st, arg);
    if (!r) return notFound(CSS);
    if (sub === undefined) return recipePage(st, ctx, r, t);
    if (sub === 'edit' && parts.length === 3) return r.deleted ? { status: 303, redirect: `${ctx.base}/r/${r.id}` } : editRecipeForm(ctx, r);
  }
  return notFound(CSS);
}
