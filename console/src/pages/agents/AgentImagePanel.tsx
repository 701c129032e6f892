// The agent's image, and making a new one from a description. The image route needs the session, so
// it is fetched with it and shown through an object URL (the page's CSP allows blob: images). Making
// one needs the image-generation feature: while it is off, that is said instead of the button. Without
// an image model on the server, the image made is a drawn avatar, and that is said too.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { getAgent } from '../../api/queries';
import { Button, TextField } from '../../ui/Fields';
import { ErrorNote } from '../../ui/Feedback';
import { generateAgentImage } from './agentChanges';
import { agentKeys, getAgentImage, type Agent } from './agentQueries';

function useObjectUrl(blob: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (blob === undefined) return;
    const created = URL.createObjectURL(blob);
    setUrl(created);
    return () => {
      URL.revokeObjectURL(created);
      setUrl(undefined);
    };
  }, [blob]);
  return url;
}

const imageFlagQuery = () => ({
  queryKey: ['flags', 'image-generation'] as const,
  queryFn: async () => (await unwrap(api.GET('/api/v2/feature-flags/image-generation'))).data.enabled,
});

const FLAG_OFF = 'Image generation is off for this organization: owners and admins turn it on under Organization, Settings (feature flags).';
const AVATAR_MADE = 'No image model is configured on this server, so an avatar was drawn from the name instead.';

function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return words
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
}

function AgentPicture({ agent }: { agent: Agent }) {
  const image = useQuery({
    queryKey: agentKeys.image(agent.id, agent.image_key ?? ''),
    queryFn: () => getAgentImage(agent.id),
    enabled: agent.image_key !== null,
    staleTime: Infinity,
  });
  const url = useObjectUrl(image.data);
  if (agent.image_key === null || url === undefined) {
    return (
      <>
        <div className="agent-picture agent-picture-empty" aria-hidden="true">
          {initialsOf(agent.name)}
        </div>
        <ErrorNote error={image.error} title="The image could not be shown." />
      </>
    );
  }
  return <img className="agent-picture" src={url} alt={`Image of ${agent.name}`} width={96} height={96} />;
}

interface AgentImagePanelProps {
  /** Null while the agent is not created yet. */
  agent: Agent | null;
  canChange: boolean;
  /** The agent as it is after the image changed (its version moved on). */
  onChanged: (agent: Agent, imageKey: string) => void;
}

export function AgentImagePanel({ agent, canChange, onChanged }: AgentImagePanelProps) {
  const [description, setDescription] = useState('');
  const flag = useQuery({ ...imageFlagQuery(), enabled: agent !== null && canChange });
  const generate = useMutation({
    mutationFn: async (agentId: number) => {
      const image = await generateAgentImage(agentId, description);
      return { image, agent: await getAgent(agentId) };
    },
    onSuccess: ({ image, agent: changed }) => {
      setDescription('');
      onChanged(changed, image.image_key);
    },
  });
  if (agent === null) {
    return (
      <div className="agent-image-panel">
        <div className="agent-picture agent-picture-empty" aria-hidden="true" />
        <p className="muted">Create the agent first, then give it an image.</p>
      </div>
    );
  }
  return (
    <div className="agent-image-panel">
      <AgentPicture agent={agent} />
      {agent.image_key === null && <p className="muted">No image yet.</p>}
      {canChange && flag.data === false && <p className="muted">{FLAG_OFF}</p>}
      {canChange && flag.data !== false && (
        <div className="agent-image-generate">
          <TextField
            label="Describe an image"
            description="Optional: without it, the name and description decide."
            value={description}
            onChange={setDescription}
            maxLength={1000}
            // Enter here makes the image; it must not save the agent's form around it.
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return;
              event.preventDefault();
              if (!generate.isPending) generate.mutate(agent.id);
            }}
          />
          <Button onPress={() => generate.mutate(agent.id)} isDisabled={generate.isPending}>
            {generate.isPending ? 'Making the image…' : agent.image_key === null ? 'Make an image' : 'Make a new image'}
          </Button>
          {generate.data?.image.generated_by === 'avatar' && <p className="muted">{AVATAR_MADE}</p>}
          <ErrorNote error={generate.error} title="The image could not be made." />
        </div>
      )}
    </div>
  );
}
