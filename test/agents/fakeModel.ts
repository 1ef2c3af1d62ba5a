// A scripted model server on 127.0.0.1 that the real agent CLIs talk to offline: Anthropic Messages
// (Claude Code), Gemini generateContent / streamGenerateContent (Gemini CLI), OpenAI Responses
// (Codex CLI) and Chat Completions (OpenCode), each streamed as the agent expects. A scenario is a
// list of editls tool calls by their short names ("edit", "read_file"); each request gets the next
// call the conversation has not made yet, then a final text. Every request is kept, so a test can
// check which tools the agent offered and exactly what text its model read for each tool result.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ToolStep {
  /** The editls tool's own name (`edit`, `read_file`, …), found in the agent's tool list whatever its prefix. */
  call: string;
  args: Record<string, unknown>;
}

/** What the model read back for one tool call, as the agent sent it. */
export interface SeenResult {
  tool: string;
  text: string;
}

/** One conversation turn as the fake model understood it. */
interface Turn {
  /** Tool names the agent offers (callable now). */
  tools: string[];
  /** Tool names the agent lists as deferred (Claude Code: loaded through ToolSearch first). */
  deferred: string[];
  /** Tool calls the model made earlier in the conversation, in order, with what came back. */
  history: { name: string; args: unknown; result: string | undefined }[];
}

type Action = { kind: 'call'; name: string; args: Record<string, unknown> } | { kind: 'text'; text: string };

export class FakeModel {
  private server: http.Server | undefined;
  /** Every request: its path and parsed body. */
  readonly requests: { path: string; body: any }[] = [];
  /** The tool names each agentic request offered (the last one wins for a test's look). */
  offered: string[] = [];
  private steps: ToolStep[] = [];
  private finalText = 'DONE';
  private calls = 0;

  /** The agent's own tools the script calls (by their exact names), instead of editls's. */
  private builtIn: Set<string> | undefined;
  private builtInCalls = 0;

  /**
   * The next conversation's script: these tool calls in order, then `final`. With `builtIn`, the calls
   * are the agent's own tools of those names (Claude Code's Read and Edit, Gemini CLI's replace).
   */
  script(steps: ToolStep[], final = 'DONE', builtIn?: string[]): void {
    this.steps = steps;
    this.finalText = final;
    this.builtIn = builtIn && new Set(builtIn);
    this.builtInCalls = 0;
  }

  /** Every tool result the agent sent back for its own tools of the script, in order (the last request's history). */
  builtInResults(): SeenResult[] {
    const own = this.builtIn ?? new Set<string>();
    const last = [...this.requests].reverse().find((r) => this.turnOf(r.path, r.body)?.history.some((h) => own.has(h.name)));
    const turn = last ? this.turnOf(last.path, last.body) : undefined;
    return (turn?.history ?? []).filter((h) => own.has(h.name) && h.result !== undefined).map((h) => ({ tool: h.name, text: h.result! }));
  }

  get url(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (d: Buffer) => chunks.push(d));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: any = {};
        try {
          body = raw === '' ? {} : JSON.parse(raw);
        } catch {
          body = { raw };
        }
        const path = req.url ?? '';
        this.requests.push({ path, body });
        try {
          this.route(path, body, res);
        } catch (error) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: String(error) } }));
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Every tool result the agent sent back to the model for an editls tool, in order. */
  results(): SeenResult[] {
    const last = [...this.requests].reverse().find((r) => this.turnOf(r.path, r.body)?.history.length);
    const turn = last ? this.turnOf(last.path, last.body) : undefined;
    return (turn?.history ?? []).filter((h) => isEditlsTool(h.name) && h.result !== undefined).map((h) => ({ tool: shortName(h.name), text: h.result! }));
  }

  private route(path: string, body: any, res: http.ServerResponse): void {
    if (/\/v1\/messages\/count_tokens/.test(path)) return json(res, { input_tokens: 100 });
    if (/\/v1\/messages/.test(path)) return anthropic(res, body, this.decide(anthropicTurn(body)));
    if (/:countTokens/.test(path)) return json(res, { totalTokens: 100 });
    if (/:generateContent/.test(path)) return gemini(res, body.generationConfig?.responseMimeType === 'application/json' ? { kind: 'text', text: JSON.stringify(sampleOf(body.generationConfig.responseJsonSchema ?? body.generationConfig.responseSchema)) } : this.decide(geminiTurn(body)), false);
    if (/:streamGenerateContent/.test(path)) return gemini(res, this.decide(geminiTurn(body)), true);
    if (/\/responses$/.test(path.split('?')[0]!)) return responses(res, body, this.decide(responsesTurn(body)));
    if (/\/chat\/completions/.test(path)) return chat(res, body, this.decide(chatTurn(body)));
    if (/\/models$/.test(path.split('?')[0]!)) return json(res, { object: 'list', data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'editls-tests' }] });
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `fake model: no route for ${path}` } }));
  }

  private turnOf(path: string, body: any): Turn | undefined {
    if (/\/v1\/messages(\?|$)/.test(path)) return anthropicTurn(body);
    if (/GenerateContent|generateContent/.test(path)) return geminiTurn(body);
    if (/\/responses/.test(path)) return responsesTurn(body);
    if (/\/chat\/completions/.test(path)) return chatTurn(body);
    return undefined;
  }

  /** The next action for this turn: the script's next editls call (after ToolSearch when it is deferred), else the final text. */
  private decide(turn: Turn): Action {
    if (this.builtIn) return this.decideBuiltIn(turn, this.builtIn);
    const editls = [...turn.tools, ...turn.deferred].filter(isEditlsTool);
    // A side request (a title, a routing decision, a summary): no editls tool offered.
    if (editls.length === 0) return { kind: 'text', text: 'ok' };
    // The agent's names for editls's tools (Gemini CLI also offers a read_file of its own).
    const prefixed = editls.filter((n) => /editls/.test(n));
    this.offered = prefixed.length > 0 ? prefixed : editls;
    const made = turn.history.filter((h) => isEditlsTool(h.name)).length;
    const step = this.steps[made];
    if (!step) return { kind: 'text', text: `${this.finalText}` };
    // An editls-prefixed name first: Gemini CLI offers its own read_file beside mcp_editls_read_file.
    const name = editls.find((n) => /editls/.test(n) && shortName(n) === step.call) ?? editls.find((n) => n === step.call);
    if (!name) return { kind: 'text', text: `the agent offers no editls tool named ${step.call}: ${editls.join(', ')}` };
    if (!turn.tools.includes(name) && turn.tools.includes('ToolSearch')) {
      const loaded = turn.history.some((h) => h.name === 'ToolSearch' && (h.result ?? '').includes(name));
      if (!loaded) return { kind: 'call', name: 'ToolSearch', args: { query: `select:${name}` } };
    }
    this.calls++;
    return { kind: 'call', name, args: step.args };
  }

  private decideBuiltIn(turn: Turn, own: Set<string>): Action {
    // A side request (a title, a routing decision, a summary) offers none of them.
    if (![...turn.tools, ...turn.deferred].some((n) => own.has(n))) return { kind: 'text', text: 'ok' };
    // Counted from the calls made too: Gemini CLI drops a refused call from the conversation, and the
    // model must not propose it again on the user's next message.
    const step = this.steps[Math.max(turn.history.filter((h) => own.has(h.name)).length, this.builtInCalls)];
    if (!step) return { kind: 'text', text: this.finalText };
    this.builtInCalls++;
    return { kind: 'call', name: step.call, args: step.args };
  }
}

/** A value that fits a JSON schema (a side request asking for JSON: Gemini CLI's model router). */
function sampleOf(schema: any): unknown {
  if (!schema || typeof schema !== 'object') return {};
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const type = String(schema.type ?? 'object').toLowerCase();
  if (type === 'object') return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sampleOf(v)]));
  if (type === 'array') return [];
  if (type === 'number' || type === 'integer') return schema.minimum ?? 1;
  if (type === 'boolean') return false;
  return 'ok';
}

/** An editls MCP tool as each agent names it: mcp__editls__edit (Claude Code, Codex), editls_edit (OpenCode), mcp_editls_edit (Gemini). */
function isEditlsTool(name: string): boolean {
  return /editls/.test(name) || EDITLS_TOOLS.has(name);
}

const EDITLS_TOOLS = new Set(['read_file', 'edit', 'str_replace', 'search_and_replace', 'replace_range', 'insert', 'undo', 'search_files', 'workspace_symbols', 'apply_preview', 'discard_preview', 'replace_in_files']);

function shortName(name: string): string {
  const m = /editls(?:__|_|-|\.)(.+)$/.exec(name);
  return m ? m[1]! : name;
}

function json(res: http.ServerResponse, value: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

function sse(res: http.ServerResponse): (event: string | undefined, data: unknown) => void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  return (event, data) => res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

/** Text of a tool result in any of the shapes agents send: a string, content blocks, parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(textOf).join('\n');
  if (content && typeof content === 'object') {
    const c = content as Record<string, unknown>;
    if (typeof c.text === 'string') return c.text;
    if ('content' in c) return textOf(c.content);
    if ('output' in c) return textOf(c.output);
    return JSON.stringify(c);
  }
  return String(content ?? '');
}

let ids = 0;
const newId = (prefix: string) => `${prefix}_${++ids}`;

// ---- Anthropic Messages (Claude Code) ----

function anthropicTurn(body: any): Turn {
  const tools = (body.tools ?? []).filter((t: any) => !t.defer_loading).map((t: any) => t.name as string);
  const text = JSON.stringify(body.system ?? '') + JSON.stringify(body.messages ?? []);
  const deferred = [...new Set(text.match(/mcp__editls__[a-z_]+/g) ?? [])].filter((n) => !tools.includes(n));
  const history: Turn['history'] = [];
  const byId = new Map<string, Turn['history'][number]>();
  for (const m of body.messages ?? []) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (b.type === 'tool_use') {
        const h = { name: b.name, args: b.input, result: undefined as string | undefined };
        history.push(h);
        byId.set(b.id, h);
      } else if (b.type === 'tool_result') {
        const h = byId.get(b.tool_use_id);
        if (h) h.result = textOf(b.content);
      }
    }
  }
  return { tools, deferred, history };
}

function anthropic(res: http.ServerResponse, body: any, action: Action): void {
  const content = action.kind === 'call' ? [{ type: 'tool_use', id: newId('toolu'), name: action.name, input: action.args }] : [{ type: 'text', text: action.text }];
  const stop = action.kind === 'call' ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  if (!body.stream) return json(res, { id: newId('msg'), type: 'message', role: 'assistant', model: body.model, content, stop_reason: stop, stop_sequence: null, usage });
  const send = sse(res);
  send('message_start', { type: 'message_start', message: { id: newId('msg'), type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, stop_sequence: null, usage } });
  const block = content[0]!;
  if (block.type === 'tool_use') {
    send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: (block as any).id, name: (block as any).name, input: {} } });
    send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify((block as any).input) } });
  } else {
    send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: (block as any).text } });
  }
  send('content_block_stop', { type: 'content_block_stop', index: 0 });
  send('message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

// ---- Gemini (Gemini CLI) ----

function geminiTurn(body: any): Turn {
  const tools = (body.tools ?? []).flatMap((t: any) => (t.functionDeclarations ?? []).map((f: any) => f.name as string));
  const history: Turn['history'] = [];
  const pending: Turn['history'] = [];
  for (const c of body.contents ?? []) {
    for (const p of c.parts ?? []) {
      if (p.functionCall) {
        const h = { name: p.functionCall.name, args: p.functionCall.args, result: undefined as string | undefined };
        history.push(h);
        pending.push(h);
      } else if (p.functionResponse) {
        const h = pending.find((x) => x.name === p.functionResponse.name && x.result === undefined);
        if (h) h.result = textOf(p.functionResponse.response);
      }
    }
  }
  return { tools, deferred: [], history };
}

function gemini(res: http.ServerResponse, action: Action, stream: boolean): void {
  const parts = action.kind === 'call' ? [{ functionCall: { name: action.name, args: action.args } }] : [{ text: action.text }];
  const chunk = { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 }, modelVersion: 'fake-model' };
  if (!stream) return json(res, chunk);
  const send = sse(res);
  send(undefined, chunk);
  res.end();
}

// ---- OpenAI Responses (Codex CLI) ----

function responsesTurn(body: any): Turn {
  // Codex groups an MCP server's tools in a namespace tool ({type: "namespace", name: "mcp__editls", tools}).
  const tools = (body.tools ?? []).flatMap((t: any) => (t.type === 'namespace' ? (t.tools ?? []).map((x: any) => `${t.name}__${x.name}`) : [(t.name ?? t.function?.name) as string])).filter(Boolean);
  const history: Turn['history'] = [];
  const byId = new Map<string, Turn['history'][number]>();
  for (const item of Array.isArray(body.input) ? body.input : []) {
    if (item.type === 'function_call') {
      let args: unknown = item.arguments;
      try {
        args = JSON.parse(item.arguments);
      } catch {
        // as sent
      }
      const h = { name: item.namespace ? `${item.namespace}__${item.name}` : item.name, args, result: undefined as string | undefined };
      history.push(h);
      byId.set(item.call_id, h);
    } else if (item.type === 'function_call_output') {
      const h = byId.get(item.call_id);
      if (h) h.result = textOf(item.output);
    }
  }
  return { tools, deferred: [], history };
}

function responses(res: http.ServerResponse, body: any, action: Action): void {
  const id = newId('resp');
  const item =
    action.kind === 'call'
      ? { type: 'function_call', id: newId('fc'), call_id: newId('call'), ...namespaced(action.name), arguments: JSON.stringify(action.args), status: 'completed' }
      : { type: 'message', id: newId('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: action.text, annotations: [] }] };
  const usage = { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 110 };
  const response = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), status: 'completed', model: body.model, output: [item], usage };
  if (!body.stream) return json(res, response);
  const send = sse(res);
  send('response.created', { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } });
  send('response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: action.kind === 'call' ? { ...item, arguments: '' } : { ...item, content: [] } });
  if (action.kind === 'text') send('response.output_text.delta', { type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: action.text });
  send('response.output_item.done', { type: 'response.output_item.done', output_index: 0, item });
  send('response.completed', { type: 'response.completed', response });
  res.end();
}

/** A call to a namespaced tool names the namespace and the tool apart (`mcp__editls` and `edit`). */
function namespaced(name: string): { name: string; namespace?: string } {
  const m = /^(mcp__[^_]+(?:_[^_]+)*)__(.+)$/.exec(name);
  return m ? { namespace: m[1]!, name: m[2]! } : { name };
}

// ---- Chat Completions (OpenCode) ----

function chatTurn(body: any): Turn {
  const tools = (body.tools ?? []).map((t: any) => t.function?.name as string).filter(Boolean);
  const history: Turn['history'] = [];
  const byId = new Map<string, Turn['history'][number]>();
  for (const m of body.messages ?? []) {
    for (const c of m.tool_calls ?? []) {
      let args: unknown = c.function?.arguments;
      try {
        args = JSON.parse(c.function.arguments);
      } catch {
        // as sent
      }
      const h = { name: c.function?.name, args, result: undefined as string | undefined };
      history.push(h);
      byId.set(c.id, h);
    }
    if (m.role === 'tool') {
      const h = byId.get(m.tool_call_id);
      if (h) h.result = textOf(m.content);
    }
  }
  return { tools, deferred: [], history };
}

function chat(res: http.ServerResponse, body: any, action: Action): void {
  const id = newId('chatcmpl');
  const created = Math.floor(Date.now() / 1000);
  const message = action.kind === 'call' ? { role: 'assistant', content: null, tool_calls: [{ index: 0, id: newId('call'), type: 'function', function: { name: action.name, arguments: JSON.stringify(action.args) } }] } : { role: 'assistant', content: action.text };
  const finish = action.kind === 'call' ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 };
  if (!body.stream) return json(res, { id, object: 'chat.completion', created, model: body.model, choices: [{ index: 0, message, finish_reason: finish }], usage });
  const send = sse(res);
  send(undefined, { id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta: message, finish_reason: null }] });
  send(undefined, { id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta: {}, finish_reason: finish }], usage });
  send(undefined, '[DONE]');
  res.end();
}
