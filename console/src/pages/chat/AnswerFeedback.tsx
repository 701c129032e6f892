// What the person says about an answer: a vote up or down, a rating from 1 to 5, and comments
// (docs/runtime.md "Feedback"). Votes and ratings answer the response with its new figures, which
// replace the ones shown.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Label, Radio, RadioGroup, ToggleButton } from 'react-aria-components';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import { ErrorNote } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { AnswerComments } from './AnswerComments';

type Figures = Schemas['ResponseFeedbackFigures'];
type Vote = 'up' | 'down' | null;

const NO_FIGURES: Figures = { up: 0, down: 0, my_vote: null, my_rating: null, average_rating: null, ratings: 0, feedback: 0, comments: 0, reviews: 0, latest_review: null };

export function AnswerFeedback({ responseId, initial }: { responseId: number; initial: Figures | undefined }) {
  const [figures, setFigures] = useState<Figures>(initial ?? NO_FIGURES);
  const path = { params: { path: { response_id: responseId } } };

  const vote = useMutation({
    mutationFn: async (value: Vote) => (await unwrap(api.PUT('/api/v2/responses/{response_id}/vote', { ...path, body: { vote: value } }))).data,
    onSuccess: (response) => response.feedback !== undefined && setFigures(response.feedback),
  });
  const rate = useMutation({
    mutationFn: async (value: number | null) => (await unwrap(api.PUT('/api/v2/responses/{response_id}/rating', { ...path, body: { rating: value } }))).data,
    onSuccess: (response) => response.feedback !== undefined && setFigures(response.feedback),
  });

  const myVote = vote.isPending ? (vote.variables ?? null) : figures.my_vote;
  const myRating = rate.isPending ? (rate.variables ?? null) : figures.my_rating;

  return (
    <div className="answer-feedback">
      <div className="answer-feedback-row">
        <div className="vote-group" role="group" aria-label="Vote on this answer">
          <ToggleButton className="button button-quiet vote-button" isSelected={myVote === 'up'} onChange={(on) => vote.mutate(on ? 'up' : null)}>
            <span aria-hidden="true">▲</span> Vote up
          </ToggleButton>
          <ToggleButton className="button button-quiet vote-button" isSelected={myVote === 'down'} onChange={(on) => vote.mutate(on ? 'down' : null)}>
            <span aria-hidden="true">▼</span> Vote down
          </ToggleButton>
          <span className="muted vote-count">
            {figures.up} up, {figures.down} down
          </span>
        </div>
        <RadioGroup
          className="rating-group"
          orientation="horizontal"
          value={myRating === null ? null : String(myRating)}
          onChange={(value) => rate.mutate(Number(value))}
        >
          <Label>Rate</Label>
          {[1, 2, 3, 4, 5].map((rating) => (
            <Radio key={rating} value={String(rating)} className="rating-option" aria-label={`${rating} out of 5`}>
              {rating}
            </Radio>
          ))}
        </RadioGroup>
        {myRating !== null && (
          <Button variant="quiet" className="icon-button" onPress={() => rate.mutate(null)}>
            Clear rating
          </Button>
        )}
      </div>
      <ErrorNote error={vote.error} title="The vote was not saved." />
      <ErrorNote error={rate.error} title="The rating was not saved." />
      <AnswerComments responseId={responseId} count={figures.comments} />
    </div>
  );
}
