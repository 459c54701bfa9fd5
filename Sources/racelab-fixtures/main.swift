import RaceLab
