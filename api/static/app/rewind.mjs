// The rewind slider: the chase as it was at any earlier version (time travel, GET
// /chases/{id}?version=N: read-only, nothing is recorded), and a playback of the record from
// version 1. The Keeper's rewind command is elsewhere; this only looks.
import { field, h } from "./dom.mjs";
import { renderTrack } from "./track.mjs";

export function rewindPanel(api, chaseId) {
  let latest = 1;
  let playing = null;
  const view = h("div", { class: "rewind-view", "aria-live": "polite" });
  const slider = h("input", { type: "range", min: 1, max: 1, value: 1, step: 1, id: "rewind-slider", "aria-valuetext": "version 1" });
  const label = h("output", { for: "rewind-slider", "data-test": "rewind-version" }, "version 1");

  async function show(version) {
    slider.value = String(version);
    slider.setAttribute("aria-valuetext", `version ${version}`);
    label.textContent = `version ${version} of ${latest}`;
    try {
      const { chase } = await api.get(`/chases/${chaseId}?version=${version}`);
      if (Number(slider.value) === version) view.replaceChildren(renderTrack(chase));
    } catch (error) {
      view.replaceChildren(h("p", {}, error.message));
    }
  }

  slider.addEventListener("input", () => show(Number(slider.value)));
  const play = h("button", { type: "button", class: "secondary", onclick: () => {
    if (playing) { clearInterval(playing); playing = null; play.textContent = "Play the record"; return; }
    let version = 1;
    play.textContent = "Pause";
    show(version);
    playing = setInterval(() => {
      version += 1;
      if (version > latest) { clearInterval(playing); playing = null; play.textContent = "Play the record"; return; }
      show(version);
    }, 700);
  } }, "Play the record");

  return {
    element: h("div", { class: "rewind" },
      field("Rewind to version", slider), label,
      h("div", { class: "buttons" }, play),
      h("p", { class: "hint" }, "Time travel is read-only: the chase goes on from its latest version."),
      view),
    update(version) {
      const atEnd = Number(slider.value) === latest;
      latest = version;
      slider.max = String(version);
      if (atEnd && !playing) { slider.value = String(version); label.textContent = `version ${version} of ${latest}`; }
    },
    show,
  };
}
