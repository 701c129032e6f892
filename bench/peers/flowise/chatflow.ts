// The chatflow measured: Flowise's plain chatbot, a Conversation Chain over a ChatOpenAI model and a
// Buffer Memory (the conversation kept in Flowise's database), which is what an agent without a
// corpus does on our side: a system prompt, the history, the question, one model call, the answer
// recorded. The ChatOpenAI node points at the fake model through its Base Path, with an OpenAI
// credential holding a dummy key. Nodes are laid out as Flowise's web UI lays them when dropped
// on the canvas (`initNode` of its UI): each input of a node definition becomes an anchor (another
// node plugs in) or a parameter (a value), with its default value.
import type { FlowiseClient } from './api.js';

interface InputDefinition {
  name: string;
  type: string;
  default?: unknown;
  [key: string]: unknown;
}

interface NodeDefinition {
  name: string;
  type: string;
  category: string;
  baseClasses: string[];
  description?: string;
  inputs?: InputDefinition[];
  credential?: InputDefinition;
  outputs?: unknown[];
  [key: string]: unknown;
}

interface FlowNode {
  id: string;
  type: 'customNode';
  position: { x: number; y: number };
  width: number;
  height: number;
  data: Record<string, unknown> & { id: string; inputs: Record<string, unknown> };
}

/** The input types the UI shows as fields to fill; any other type is an anchor for another node. */
const PARAMETER_TYPES = new Set(['asyncOptions', 'asyncMultiOptions', 'options', 'multiOptions', 'array', 'datagrid', 'string', 'number', 'boolean', 'password', 'json', 'code', 'date', 'file', 'folder', 'tabs', 'credential']);

function initNode(definition: NodeDefinition, id: string, x: number): FlowNode {
  const inputs = definition.inputs ?? [];
  const withId = (input: InputDefinition) => ({ ...input, id: `${id}-input-${input.name}-${input.type}` });
  const inputParams = inputs.filter((input) => PARAMETER_TYPES.has(input.type)).map(withId);
  if (definition.credential !== undefined) inputParams.unshift(withId(definition.credential));
  const inputAnchors = inputs.filter((input) => !PARAMETER_TYPES.has(input.type)).map(withId);
  if (definition.outputs !== undefined && definition.outputs.length > 0) throw new Error(`node ${definition.name} has output options, which this chatflow does not lay out`);
  const outputAnchors = [
    { id: `${id}-output-${definition.name}-${definition.baseClasses.join('|')}`, name: definition.name, label: definition.type, description: definition.description ?? '', type: definition.baseClasses.join(' | ') },
  ];
  return {
    id,
    type: 'customNode',
    position: { x, y: 200 },
    width: 300,
    height: 500,
    data: {
      ...definition,
      id,
      inputs: Object.fromEntries(inputs.map((input) => [input.name, input.default ?? ''])),
      outputs: {},
      inputParams,
      inputAnchors,
      outputAnchors,
      selected: false,
    },
  };
}

function edge(source: FlowNode, target: FlowNode, inputName: string) {
  const sourceHandle = (source.data.outputAnchors as { id: string }[])[0]!.id;
  const anchor = (target.data.inputAnchors as { id: string; name: string }[]).find((input) => input.name === inputName);
  if (anchor === undefined) throw new Error(`node ${target.id} has no input ${inputName}`);
  target.data.inputs[inputName] = `{{${source.id}.data.instance}}`;
  return { source: source.id, sourceHandle, target: target.id, targetHandle: anchor.id, type: 'buttonedge', id: `${source.id}-${sourceHandle}-${target.id}-${anchor.id}` };
}

export interface BenchChatflow {
  id: string;
  credentialId: string;
}

/** The credential, then the chatflow, through Flowise's API; the model answers from `modelBaseUrl`. */
export async function createChatflow(client: FlowiseClient, modelBaseUrl: string, modelName: string): Promise<BenchChatflow> {
  const credential = await client.post<{ id: string }>('/api/v1/credentials', {
    name: 'Fake model (bench)',
    credentialName: 'openAIApi',
    plainDataObj: { openAIApiKey: 'sk-bench-not-a-real-key' },
  });
  const [model, memory, chain] = await Promise.all(
    ['chatOpenAI', 'bufferMemory', 'conversationChain'].map((name) => client.get<NodeDefinition>(`/api/v1/nodes/${name}`)),
  );
  const modelNode = initNode(model!, 'chatOpenAI_0', 0);
  Object.assign(modelNode.data.inputs, { modelName, basepath: modelBaseUrl, streaming: true, FLOWISE_CREDENTIAL_ID: credential.id });
  modelNode.data.credential = credential.id;
  const memoryNode = initNode(memory!, 'bufferMemory_0', 400);
  const chainNode = initNode(chain!, 'conversationChain_0', 800);
  const edges = [edge(modelNode, chainNode, 'model'), edge(memoryNode, chainNode, 'memory')];
  const flowData = { nodes: [modelNode, memoryNode, chainNode], edges, viewport: { x: 0, y: 0, zoom: 1 } };
  const chatflow = await client.post<{ id: string }>('/api/v1/chatflows', { name: 'Bench: conversation over the fake model', flowData: JSON.stringify(flowData), deployed: false, isPublic: false, type: 'CHATFLOW' });
  return { id: chatflow.id, credentialId: credential.id };
}
