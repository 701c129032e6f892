// An agent's image: generated from a description by the image model (or drawn as an avatar when none
// is configured), checked by its content and size, stored in the blob store and named by the agent's
// configuration. Replacing an image leaves the old blob in place: history records name it, and a
// restore to one of them brings that image back.
import { PayloadTooLarge, NotFound, UpstreamError } from '../../errors.js';
import type { ImageGenerator } from '../../providers/images/image-generator.js';
import type { UnitOfWork } from '../../repositories.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { detectImageType, type ImageType } from '../../storage/image-type.js';
import type { Actor } from '../auth/actor.js';
import { changeRefusal, loadAgentAccess, requireVisibleAgent } from '../agents/agent-access.js';
import { commitAgentChange } from '../agents/agent-changes.js';
import { agentPolicy, authorize } from '../agents/agent.policy.js';
import type { FeatureFlagsService } from '../flags/flags.service.js';

export interface GeneratedImage {
  image_key: string;
  content_type: ImageType;
  size: number;
  generated_by: 'model' | 'avatar';
}

export interface StoredImage {
  bytes: Buffer;
  contentType: ImageType;
  /** Quoted; images never change under their key, so the key is the validator. */
  etag: string;
}

/** The longest prompt sent to the image model. */
const PROMPT_CHARACTERS = 4000;

export const etagOf = (imageKey: string) => `"${imageKey.replace('/', '-')}"`;

export class AgentImagesService {
  constructor(
    private readonly store: UnitOfWork,
    private readonly flags: FeatureFlagsService,
    private readonly blobs: BlobStore,
    private readonly generator: ImageGenerator,
    private readonly maxBytes: number,
  ) {}

  async generate(actor: Actor, agentId: number, description: string | undefined): Promise<GeneratedImage> {
    const { agent, teamRole } = await loadAgentAccess(this.store.repos, actor, agentId);
    authorize(agentPolicy.mayChange(actor, agent, teamRole), changeRefusal(agent, 'change agents'));
    await this.flags.require(actor, 'image-generation');
    const prompt = (description ?? `An avatar for an AI assistant named “${agent.name}”. ${agent.description}`).slice(0, PROMPT_CHARACTERS);
    const bytes = await this.generator.generate({ prompt, seed: agent.name, maxBytes: this.maxBytes });
    const contentType = this.checked(bytes);
    const key = await this.blobs.put(bytes);
    try {
      await this.store.transaction((repos) => commitAgentChange(repos, actor, agentId, { image_key: key }, { kind: 'update', checkpointName: 'Image generated' }));
    } catch (error) {
      await this.blobs.delete(key).catch(() => undefined);
      throw error;
    }
    return { image_key: key, content_type: contentType, size: bytes.length, generated_by: this.generator.source };
  }

  /** A model's answer is the model's fault when it is no image or too large: 502, nothing stored. */
  private checked(bytes: Buffer): ImageType {
    if (bytes.length > this.maxBytes) {
      if (this.generator.source === 'model') throw new UpstreamError(`The image model answered an image larger than ${this.maxBytes} bytes (LIMIT_IMAGE_BYTES)`);
      throw new PayloadTooLarge(`The image is larger than ${this.maxBytes} bytes (LIMIT_IMAGE_BYTES)`);
    }
    const contentType = detectImageType(bytes);
    if (contentType === undefined) throw new UpstreamError('The image model answered something that is not a PNG, JPEG, GIF or WebP image');
    return contentType;
  }

  async image(actor: Actor, agentId: number): Promise<StoredImage> {
    const agent = await requireVisibleAgent(this.store.repos, actor, agentId);
    const bytes = agent.image_key === null ? undefined : await this.blobs.get(agent.image_key);
    const contentType = bytes === undefined ? undefined : detectImageType(bytes);
    if (bytes === undefined || contentType === undefined || agent.image_key === null) throw new NotFound('image of agent', agentId);
    return { bytes, contentType, etag: etagOf(agent.image_key) };
  }
}
