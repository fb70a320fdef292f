"""Queries as an agent types them, with the offline Wikipedia articles that answer them: the table the offline wiki's
tests check (tests/test_wiki_offline.py) and its speed benchmark measures (ponder/bench/speed/wiki.py)."""
from __future__ import annotations

# (query as an agent would type it, the article that must be in the top 5 — or a tuple of articles any of which
# answers it: for "author of Hamlet" the Hamlet article, which names its author, is as right as Shakespeare's)
RELEVANCE = [
    ("light bulb inventor", "Thomas Edison"),
    ("who invented the light bulb", ("Incandescent light bulb", "Thomas Edison")),
    ("who painted the Mona Lisa", "Mona Lisa"),
    ("Mona Lisa painter", ("Mona Lisa", "Leonardo da Vinci")),
    ("largest planet solar system", "Jupiter"),
    ("python programming language", "Programming language"),
    ("theory of relativity physicist", "Albert Einstein"),
    ("theory of relativity", "Theory of relativity"),
    ("law of universal gravitation", ("Newton's law of universal gravitation", "Isaac Newton")),
    ("origin of species evolution by natural selection", "Charles Darwin"),
    ("second world war", "World War II"),
    ("tallest mountain on earth", "Mount Everest"),
    ("iron tower in Paris", "Eiffel Tower"),
    ("how plants make food from sunlight", "Photosynthesis"),
    ("double helix genetic material", "DNA"),
    ("author of Hamlet", ("Hamlet", "William Shakespeare")),
    ("discovery of penicillin", "Alexander Fleming"),
    ("inventor of the telephone", "Alexander Graham Bell"),
    ("Gutenberg printing press", "Printing press"),
    ("first man on the moon", ("Apollo 11", "Neil Armstrong")),
    ("Apollo moon landing 1969", "Apollo 11"),
    ("great wall china", "Great Wall of China"),
    ("largest ocean", "Pacific Ocean"),
    ("speed of light in vacuum", "Speed of light"),
    ("black holes", "Black hole"),
    ("storming of the Bastille 1789", "French Revolution"),
    ("first Roman emperor", "Augustus"),
    ("composer of the ninth symphony", ("Symphony No. 9 (Beethoven)", "Ludwig van Beethoven")),
    ("painter of The Starry Night", ("The Starry Night", "Vincent van Gogh")),
    ("Marie Curie radioactivity", "Marie Curie"),
    ("inventor of the world wide web", "Tim Berners-Lee"),
    ("continental drift", "Plate tectonics"),
    ("hormone that regulates blood sugar", "Insulin"),
    ("largest animal ever", "Blue whale"),
    ("Pythagoras theorem right triangle", "Pythagorean theorem"),
    ("table of chemical elements", "Periodic table"),
    ("steam engine improvements James Watt", "James Watt"),
    ("first president of the united states", "George Washington"),
    ("origin of the universe", "Big Bang"),
    ("father of computer science Turing machine", "Alan Turing"),
    ("Guernica painting", "Guernica (Picasso)"),
    ("mozart", "Wolfgang Amadeus Mozart"),
    # A word that is no title and appears only in a few intros' text; MiniLM knows none of them as a word, so its
    # neighbours merely look alike (Phonology for phonograph, Hefei for theremin).
    ("phonograph", "Thomas Edison"),
    ("daguerreotype", "Louis Daguerre"),
    ("dynamite inventor", ("Alfred Nobel", "Dynamite")),
    ("penicillin discovery", ("Alexander Fleming", "Penicillin")),
    ("gramophone", "Emile Berliner"),
    ("cyclotron", "Ernest Lawrence"),
    ("theremin", "Electronic music"),
    ("antiseptic", ("Joseph Lister", "Ignaz Semmelweis")),
    ("heliocentric", "Nicolaus Copernicus"),
    ("bakelite", "Leo Baekeland"),
    ("nitroglycerin", "Dynamite"),
    ("turbojet", "Jet engine"),
    ("dirigible", "Airship"),
    ("cowpox", ("Edward Jenner", "Smallpox vaccine")),
    ("chronometer", "Clock"),
]


def is_hit(expected: str | tuple[str, ...], found: list[str]) -> bool:
    return any(title in found for title in ((expected,) if isinstance(expected, str) else expected))
