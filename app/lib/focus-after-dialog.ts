import { useCallback, useEffect, useRef } from "react";

/**
 * For a confirmation whose action takes away the button that opened it (a removed row, a member kicked):
 * once the dialog has closed (`open` false, the dialog having given the focus back to that button), the
 * focus goes to the element `id` (the page's or card's heading) instead of falling to the page. Call the
 * returned function when the action succeeded.
 */
export function useFocusAfterDialog(open: boolean, id: string): () => void {
  const armed = useRef(false);
  useEffect(() => {
    if (!open && armed.current) {
      armed.current = false;
      document.getElementById(id)?.focus();
    }
  }, [open, id]);
  return useCallback(() => {
    armed.current = true;
  }, []);
}
