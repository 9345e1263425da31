import { type FormEvent, useEffect, useRef } from "react";
import { useActionData, useNavigation } from "react-router";

/**
 * A `<Form>`'s onSubmit that lets one submission through until the page is idle again. The submit button
 * is disabled once React Router says it is submitting, one render later: a double click lands in between
 * and sent the form twice (two sign-ins, two registrations).
 */
export function useOneSubmitAtATime(): (event: FormEvent<HTMLFormElement>) => void {
  const navigation = useNavigation();
  const answer = useActionData();
  const sending = useRef(false);
  // Idle again, or answered: an action that answers at once (the form's own checks) can go from idle to
  // submitting and back within one render, and only its new answer shows that it is done.
  useEffect(() => {
    if (navigation.state === "idle") sending.current = false;
  }, [navigation.state, answer]);
  return (event) => {
    if (sending.current) {
      event.preventDefault();
      return;
    }
    sending.current = true;
  };
}
